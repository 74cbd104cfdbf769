package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.platform.Platform;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The second half of sandbox deletions, off the agent's path: each retired sandbox is deleted in a
 * virtual thread of its own. A failure is logged and left to the reaper, which finishes sandboxes
 * retired longer than {@link SandboxService#DELETION_GRACE} ago; so is a deletion a stopped server
 * never ran.
 */
final class BackgroundDeletions {
  private static final Logger LOG = System.getLogger(BackgroundDeletions.class.getName());

  /** Deletions in flight; guarded by this. */
  private int inFlight;

  void submit(Platform platform, String name) {
    synchronized (this) {
      inFlight++;
    }
    Thread.ofVirtual()
        .name("sandbox-delete-" + name)
        .start(
            () -> {
              try {
                platform.sandboxes().delete(name);
              } catch (BackendException e) {
                if (!e.isNotFound()) {
                  LOG.log(Level.WARNING, "background sandbox delete failed sandbox=" + name, e);
                }
              } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "background sandbox delete failed sandbox=" + name, e);
              } finally {
                finished();
              }
            });
  }

  private synchronized void finished() {
    inFlight--;
    notifyAll();
  }

  /** True when every deletion submitted so far finished within {@code limit}. */
  synchronized boolean await(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (inFlight > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
