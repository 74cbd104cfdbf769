package dev.agentcompute.codemode;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** An injected clock tests move by hand instead of sleeping. */
public final class TestClock implements InstantSource {

  private volatile Instant now;

  public TestClock(Instant start) {
    this.now = start;
  }

  public TestClock() {
    this(Instant.parse("2026-12-01T10:00:00Z"));
  }

  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public Instant instant() {
    return now;
  }
}
