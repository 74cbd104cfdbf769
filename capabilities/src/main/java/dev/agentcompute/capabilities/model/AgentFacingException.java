package dev.agentcompute.capabilities.model;

/**
 * A validation or state error whose exact message the agent sees
 * (docs/reference/capabilities.md#errors).
 */
public final class AgentFacingException extends ComputeException {
  public AgentFacingException(String message) {
    super(message, null);
  }
}
