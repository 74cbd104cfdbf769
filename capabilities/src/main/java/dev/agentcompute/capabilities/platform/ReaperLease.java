package dev.agentcompute.capabilities.platform;

import java.time.Duration;
import java.time.Instant;

/**
 * Who may reap: with several servers on one Incus, one of them holds a lease stored in Incus and
 * renews it on every scan; when it dies, the lease runs out and another server takes over (issue
 * 19.6). A single server needs none ({@link #ALWAYS}).
 */
public interface ReaperLease {
  /** The lease of a server alone: it always holds it. */
  ReaperLease ALWAYS =
      new ReaperLease() {
        @Override
        public boolean acquire(String holder, Instant now, Duration period) {
          return true;
        }

        @Override
        public void release(String holder) {}
      };

  /**
   * Takes the lease, or renews it when {@code holder} has it, until {@code now + period}; false
   * while another holder's lease has not run out.
   */
  boolean acquire(String holder, Instant now, Duration period);

  /** Gives the lease up early (clean shutdown), so another server takes over at its next scan. */
  void release(String holder);
}
