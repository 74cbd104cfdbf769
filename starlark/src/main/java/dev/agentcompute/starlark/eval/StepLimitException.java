package dev.agentcompute.starlark.eval;

/** The thread's step budget ({@link StarlarkThread#setMaxSteps}) is exhausted. */
public final class StepLimitException extends BudgetException {
  StepLimitException(long maxSteps) {
    super("Starlark computation cancelled: execution step limit exceeded (" + maxSteps + " steps)");
  }
}
