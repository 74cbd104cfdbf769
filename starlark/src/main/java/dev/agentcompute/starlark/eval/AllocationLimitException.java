package dev.agentcompute.starlark.eval;

/** The thread's allocation budget ({@link StarlarkThread#setMaxAllocBytes}) is exhausted. */
public final class AllocationLimitException extends BudgetException {
  AllocationLimitException(long maxBytes) {
    super("Starlark computation cancelled: allocation limit exceeded (" + maxBytes + " bytes)");
  }
}
