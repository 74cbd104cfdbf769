package dev.agentcompute.server.observe;

import java.util.function.Supplier;

/**
 * A count that only grows, over a source that starts again from zero now and then (worker starts
 * per compute generation: a reload builds a new generation): when the source drops, what it had
 * counted is kept. Starts in the old generation after its last read are not seen.
 */
public final class RunningTotal implements Supplier<Long> {
  private final Supplier<? extends Number> source;
  private long base;
  private long last;

  public RunningTotal(Supplier<? extends Number> source) {
    this.source = source;
  }

  @Override
  public synchronized Long get() {
    long now = source.get().longValue();
    if (now < last) {
      base += last;
    }
    last = now;
    return base + now;
  }
}
