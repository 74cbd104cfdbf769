package dev.agentcompute.starlark.eval;

/** The thread was cancelled with {@link StarlarkThread#cancel(String)}. */
public final class CancelledException extends BudgetException {
  CancelledException(String reason) {
    super("Starlark computation cancelled: " + reason);
  }
}
