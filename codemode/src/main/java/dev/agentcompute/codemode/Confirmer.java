package dev.agentcompute.codemode;

/**
 * Asks a person whether one call may run (docs/reference/policy.md#confirmations): the MCP adapter
 * implements it with elicitation when the client declared form elicitation. Return true to approve
 * exactly this call. False, an exception, or no answer within MaxConfirmationWait declines it
 * ({@code confirmation declined}); the wait does not count against MaxExecutionTime. Honour {@link
 * Context#isDone()}.
 */
@FunctionalInterface
public interface Confirmer {

  boolean confirm(Context ctx, ConfirmationPrompt prompt) throws Exception;
}
