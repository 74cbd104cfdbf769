package dev.agentcompute.capabilities.model;

/** A validation or state error whose exact message the agent sees (spec §2 error texts). */
public final class AgentFacingException extends ComputeException {
  public AgentFacingException(String message) {
    super(message, null);
  }
}
