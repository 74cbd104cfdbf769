package dev.agentcompute.starlark.eval;

import java.util.List;
import java.util.Map;

/** Entry points of the evaluator for code outside this package (front door, CLI). */
public final class Interpreter {
  private Interpreter() {}

  /**
   * Calls {@code fn}; any error becomes an {@link EvalError} carrying the call stack (an error
   * raised by a builtin ends the stack with the builtin's frame).
   */
  public static Value call(
      StarlarkThread thread, Value fn, Value[] args, List<Map.Entry<String, Value>> kwargs)
      throws EvalError {
    if (!(fn instanceof Callable c)) {
      throw new EvalError(
          new EvalException("invalid call of non-function (" + fn.type() + ")"), List.of());
    }
    try {
      return Eval.call(thread, c, args, kwargs);
    } catch (EvalError e) {
      throw e;
    } catch (EvalException e) {
      throw new EvalError(e, Eval.snapshot(thread));
    } catch (StackOverflowError e) {
      throw new EvalError(new EvalException("Starlark stack overflow"), Eval.snapshot(thread));
    }
  }

  /** The current call stack of the thread, outermost first. */
  public static List<EvalError.StackEntry> callStack(StarlarkThread thread) {
    return Eval.snapshot(thread);
  }
}
