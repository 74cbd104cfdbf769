package dev.agentcompute.starlark.eval;

/**
 * The thread's step budget ({@link StarlarkThread#setMaxSteps}) is exhausted. The text is what
 * CodeMode's Go original produces (its OnMaxSteps hook cancels with this reason).
 */
public final class StepLimitException extends BudgetException {
  private final long maxSteps;

  StepLimitException(long maxSteps) {
    super("Starlark computation cancelled: execution step limit exceeded");
    this.maxSteps = maxSteps;
  }

  /** The budget that was exceeded. */
  public long maxSteps() {
    return maxSteps;
  }
}
