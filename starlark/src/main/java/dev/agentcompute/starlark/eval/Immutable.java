package dev.agentcompute.starlark.eval;

/**
 * A value that can never change (ints, floats, strings, bytes, None, bools, ranges...): freezing it
 * does nothing and it always reports frozen. Mutable types implement {@link Value} directly and
 * must say how they freeze.
 */
public interface Immutable extends Value {
  @Override
  default void freeze() {}

  @Override
  default boolean isFrozen() {
    return true;
  }
}
