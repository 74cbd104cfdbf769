package dev.agentcompute.starlark.eval;

/** An execution budget ran out or the execution was cancelled; never caught by Starlark code. */
public abstract sealed class BudgetException extends EvalException
    permits StepLimitException,
        AllocationLimitException,
        CancelledException,
        DepthLimitException,
        SizeLimitException {
  BudgetException(String message) {
    super(message);
  }
}
