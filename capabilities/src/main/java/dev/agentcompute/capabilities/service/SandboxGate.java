package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Cancellation;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Serialises mutations of one sandbox while different sandboxes proceed in parallel. Waiting for
 * the gate honours cancellation: an interrupted caller gets a {@link CancellationException} and
 * holds nothing. Callers keep long waits (boot, exec, file IO) outside {@link #run}.
 */
public final class SandboxGate {
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }

  /** Runs {@code action} while holding the gate of {@code sandbox}. */
  public <T> T run(String sandbox, Supplier<T> action) {
    Entry entry =
        entries.compute(
            sandbox,
            (name, existing) -> {
              Entry e = existing == null ? new Entry() : existing;
              e.users++;
              return e;
            });
    try {
      try {
        entry.lock.lockInterruptibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Cancellation.canceled(e);
      }
      try {
        return action.get();
      } finally {
        entry.lock.unlock();
      }
    } finally {
      entries.compute(sandbox, (name, e) -> --e.users == 0 ? null : e);
    }
  }

  /** Runs {@code action} under the gate, for mutations without a result. */
  public void run(String sandbox, Runnable action) {
    run(
        sandbox,
        () -> {
          action.run();
          return null;
        });
  }

  /** Number of sandboxes with a holder or waiter; zero when idle (nothing leaks per name). */
  int activeKeys() {
    return entries.size();
  }
}
