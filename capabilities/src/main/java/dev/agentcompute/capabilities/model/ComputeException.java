package dev.agentcompute.capabilities.model;

/**
 * Every failure of a compute operation. Only {@link AgentFacingException} messages are shown to the
 * agent (as {@code capability failed: <message>}); a {@link BackendException} surfaces as a bare
 * {@code capability failed} so backend internals never leak into the model's context.
 */
public abstract sealed class ComputeException extends RuntimeException
    permits AgentFacingException, BackendException {
  ComputeException(String message, Throwable cause) {
    super(message, cause);
  }
}
