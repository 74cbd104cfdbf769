package dev.agentcompute.starlark.eval;

/**
 * A value would be larger than the interpreter accepts: an int beyond {@link StarlarkInt#MAX_BITS}.
 * starlark-go has no such limit (its ints grow until memory runs out, and big-int arithmetic can
 * then run for minutes inside a small step budget), so this is one of our budgets and, like them,
 * ends the execution: CodeMode reports it as {@code resource limit exceeded}.
 */
public final class SizeLimitException extends BudgetException {
  SizeLimitException(String message) {
    super(message);
  }
}
