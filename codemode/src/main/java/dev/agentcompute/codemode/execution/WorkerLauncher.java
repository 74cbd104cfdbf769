package dev.agentcompute.codemode.execution;

import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Starts every worker process from one platform thread that lives as long as the JVM. bubblewrap's
 * {@code --die-with-parent} is {@code PR_SET_PDEATHSIG}, and Linux sends that signal when the
 * <em>thread</em> that forked the process ends, not the process: a jail started from a short-lived
 * thread (a pool refill, a virtual thread's carrier that retires) is killed as soon as that thread
 * ends, a moment after it started. Forking from this one thread, a jail dies with the server (also
 * when the server is SIGKILLed) and never before. Process-wide on purpose: the kernel ties the
 * signal to this thread, so a launcher per pool would take its workers down when the pool closed.
 */
final class WorkerLauncher {
  private record Launch(ProcessBuilder builder, CompletableFuture<Process> started) {}

  private static final BlockingQueue<Launch> LAUNCHES = new LinkedBlockingQueue<>();

  static {
    Thread.ofPlatform()
        .daemon()
        .name("codemode-worker-launcher")
        .start(
            () -> {
              while (true) {
                Launch launch;
                try {
                  launch = LAUNCHES.take();
                } catch (InterruptedException e) {
                  continue; // nothing may end this thread while the JVM runs: it parents the jails
                }
                try {
                  launch.started().complete(launch.builder().start());
                } catch (IOException | RuntimeException e) {
                  launch.started().completeExceptionally(e);
                }
              }
            });
  }

  private WorkerLauncher() {}

  /**
   * Starts {@code builder}'s process on the launcher thread. Waits without giving up on interrupt
   * (a start takes milliseconds), so a process is never started for a caller that is gone.
   */
  static Process start(ProcessBuilder builder) throws IOException {
    Launch launch = new Launch(builder, new CompletableFuture<>());
    LAUNCHES.add(launch);
    try {
      return launch.started().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }
}
