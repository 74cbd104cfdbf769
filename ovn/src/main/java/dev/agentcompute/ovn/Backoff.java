package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Reconnect delays: from {@code min}, doubling up to {@code max}, each with up to 25 % of jitter so
 * many clients do not reconnect in lockstep. Not thread-safe (the supervisor owns it).
 */
final class Backoff {
  private final long minNanos;
  private final long maxNanos;
  private long nextNanos;

  Backoff(Duration min, Duration max) {
    this.minNanos = min.toNanos();
    this.maxNanos = max.toNanos();
    this.nextNanos = minNanos;
  }

  /** Sleeps the current delay and doubles the next; false when interrupted. */
  boolean pause() {
    long jittered = nextNanos + (long) (Math.random() * nextNanos / 4);
    nextNanos = Math.min(nextNanos * 2, maxNanos);
    try {
      TimeUnit.NANOSECONDS.sleep(jittered);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /** Back to the shortest delay (after a connection that was healthy for a while). */
  void reset() {
    nextNanos = minNanos;
  }
}
