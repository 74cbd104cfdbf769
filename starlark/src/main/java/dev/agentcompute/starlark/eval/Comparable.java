package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/** A value type with an ordering or equality of its own, compared against a value of the same type. */
public interface Comparable extends Value {
  /** Compares with {@code y} of the same type; {@code depth} guards against cyclic structures. */
  boolean compareSameType(Token op, Value y, int depth) throws EvalException;
}
