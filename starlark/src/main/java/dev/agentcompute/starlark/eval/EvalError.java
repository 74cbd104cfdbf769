package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Position;
import java.util.List;

/**
 * A Starlark runtime error with the call stack at the point of failure (Go's EvalError). The
 * message is the bare error text; {@link #backtrace()} lists frames outermost first, each with the
 * position executing in it. A budget error keeps its {@link BudgetException} as the cause.
 */
public final class EvalError extends EvalException {
  /** One call-stack entry: the function name and the position executing in it. */
  public record StackEntry(String function, Position pos) {
    @Override
    public String toString() {
      return pos + ": in " + function;
    }
  }

  private final List<StackEntry> backtrace;

  EvalError(EvalException cause, List<StackEntry> backtrace) {
    super(cause.getMessage(), cause);
    this.backtrace = List.copyOf(backtrace);
  }

  /** The call stack, outermost first; the last entry is where the error occurred. */
  public List<StackEntry> backtrace() {
    return backtrace;
  }

  /** The position of the innermost frame. */
  public Position position() {
    return backtrace.isEmpty() ? Position.UNKNOWN : backtrace.get(backtrace.size() - 1).pos();
  }

  /** The budget error (step limit, allocation limit, cancellation) behind this error, if any. */
  public BudgetException budget() {
    return getCause() instanceof BudgetException b ? b : null;
  }

  /** Go's EvalError.Backtrace(): a Python-style traceback followed by "Error: msg". */
  public String traceback() {
    StringBuilder sb = new StringBuilder("Traceback (most recent call last):\n");
    for (StackEntry e : backtrace) {
      sb.append("  ").append(e).append('\n');
    }
    sb.append("Error: ").append(getMessage());
    return sb.toString();
  }
}
