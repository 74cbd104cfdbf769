package dev.agentcompute.server.observe;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Execute ids: {@code ex-} then twelve hex digits of the start's epoch milliseconds and four of a
 * per-process sequence, so ids sort by start time and never repeat within a process. One place
 * makes them: the audit trail and the admin API name an execute by the same id.
 */
public final class ExecuteIds {
  public static final String PREFIX = "ex-";

  private final Clock clock;
  private final AtomicLong sequence = new AtomicLong();

  public ExecuteIds(Clock clock) {
    this.clock = clock;
  }

  public String next() {
    return String.format(
        "%s%012x%04x", PREFIX, clock.millis(), sequence.getAndIncrement() & 0xffff);
  }
}
