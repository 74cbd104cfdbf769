package dev.agentcompute.starlark.eval;

/**
 * A value nests deeper than the interpreter accepts (json.decode refuses input nested beyond its
 * limit rather than exhaust the stack). starlark-go has no such limit, so this is one of our
 * budgets and, like them, ends the execution: {@code default=} and {@code assert.fails} do not
 * catch it.
 */
public final class DepthLimitException extends BudgetException {
  public DepthLimitException(String message) {
    super(message);
  }
}
