package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/** A value type that defines its own binary operators (consulted after the built-in rules). */
public interface HasBinary extends Value {
  /**
   * Computes {@code this op y} (or {@code y op this} when {@code thisOnRight}); returns {@code
   * null} when the operation is not supported so that the caller reports "unknown binary op".
   */
  Value binary(Token op, Value y, boolean thisOnRight) throws EvalException;
}
