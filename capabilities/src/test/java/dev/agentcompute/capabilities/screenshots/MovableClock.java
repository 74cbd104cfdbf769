package dev.agentcompute.capabilities.screenshots;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the screenshot tests move by hand, starting at {@link #T0}. */
final class MovableClock extends Clock {
  static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");

  Instant now = T0;

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
