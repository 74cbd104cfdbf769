package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/**
 * A value type with an ordering or equality of its own, compared against a value of the same type.
 */
public interface Comparable extends Value {
  /**
   * Compares with {@code y} of the same type. A container compares its elements through {@code
   * cmp}, which bounds the nesting (cycles) and charges the work.
   */
  boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException;
}
