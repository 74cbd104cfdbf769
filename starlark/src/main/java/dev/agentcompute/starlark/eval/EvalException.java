package dev.agentcompute.starlark.eval;

/**
 * A Starlark runtime error carrying its message only (Go's {@code EvalError.Msg}); the evaluator
 * adds the position and call stack. Budget exhaustion uses the {@link BudgetException} subclasses
 * so that callers, and builtins that catch errors (such as {@code json.decode} with a default), can
 * tell them apart and never swallow them.
 */
public class EvalException extends Exception {
  public EvalException(String message) {
    super(message, null, false, false);
  }

  public EvalException(String message, Throwable cause) {
    super(message, cause, false, false);
  }

  /**
   * {@code e} with its message prefixed by {@code fn: }, as starlark-go's builtins report the
   * errors of what they call; a budget error passes unchanged.
   */
  static EvalException prefixed(String fn, EvalException e) {
    return e instanceof BudgetException ? e : new EvalException(fn + ": " + e.getMessage());
  }
}
