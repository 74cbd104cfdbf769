package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Position;
import java.util.ArrayList;
import java.util.List;

/**
 * A Starlark runtime error with the call stack at the point of failure (Go's EvalError). The
 * message is the bare error text; {@link #backtrace()} lists frames outermost first, each with the
 * position executing in it. A builtin on the stack is a frame of its own at {@link #BUILTIN}, as in
 * starlark-go. A budget error keeps its {@link BudgetException} as the cause.
 */
public final class EvalError extends EvalException {
  /** The position of a builtin's frame (Go's {@code <builtin>} file, with no line). */
  public static final Position BUILTIN = new Position("<builtin>", 0, 0);

  /** One call-stack entry: the function name and the position executing in it. */
  public record StackEntry(String function, Position pos) {
    /** True for the frame of a function implemented in Java. */
    public boolean isBuiltin() {
      return pos.equals(BUILTIN);
    }

    @Override
    public String toString() {
      return pos + ": in " + function;
    }
  }

  private final List<StackEntry> backtrace;

  EvalError(EvalException cause, List<StackEntry> backtrace) {
    this(cause.getMessage(), cause, backtrace);
  }

  private EvalError(String message, Throwable cause, List<StackEntry> backtrace) {
    super(message, cause);
    this.backtrace = List.copyOf(backtrace);
  }

  /**
   * This error as it unwinds through the builtin {@code name} called with {@code depth} frames
   * below it: the builtin's frame goes in at that depth (the error was raised by a Starlark
   * function the builtin called back).
   */
  EvalError throughBuiltin(String name, int depth) {
    List<StackEntry> stack = new ArrayList<>(backtrace);
    stack.add(Math.min(depth, stack.size()), new StackEntry(name, BUILTIN));
    return new EvalError(getMessage(), getCause(), stack);
  }

  /** The call stack, outermost first; the last entry is where the error occurred. */
  public List<StackEntry> backtrace() {
    return backtrace;
  }

  /** The position of the innermost Starlark frame (a failing builtin's caller, at the call). */
  public Position position() {
    for (int i = backtrace.size() - 1; i >= 0; i--) {
      if (!backtrace.get(i).isBuiltin()) {
        return backtrace.get(i).pos();
      }
    }
    return Position.UNKNOWN;
  }

  /** The budget error (step limit, allocation limit, cancellation) behind this error, if any. */
  public BudgetException budget() {
    return getCause() instanceof BudgetException b ? b : null;
  }

  /**
   * Go's EvalError.Backtrace(): a Python-style traceback followed by {@code Error: msg}, or {@code
   * Error in fn: msg} when the error was raised inside the builtin fn (whose frame is then not
   * listed).
   */
  public String traceback() {
    List<StackEntry> stack = backtrace;
    String suffix = "";
    int last = stack.size() - 1;
    if (last >= 0 && stack.get(last).isBuiltin()) {
      suffix = " in " + stack.get(last).function();
      stack = stack.subList(0, last);
    }
    StringBuilder sb = new StringBuilder();
    if (!stack.isEmpty()) {
      sb.append("Traceback (most recent call last):\n");
    }
    for (StackEntry e : stack) {
      sb.append("  ").append(e).append('\n');
    }
    return sb.append("Error").append(suffix).append(": ").append(getMessage()).toString();
  }
}
