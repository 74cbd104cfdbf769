package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Failure;

/** How application code's failures read to clients: handlers and resource sources alike. */
public final class Outcomes {

  private Outcomes() {}

  /**
   * An unchecked exception is a bug ({@code internal failure}); any other is {@code capability
   * failed}, with the sanitized message of an {@link AgentError} in its cause chain.
   */
  public static CodeModeException applicationFailure(Throwable t) {
    if (t instanceof RuntimeException || t instanceof Error) {
      return CodeModeException.of(Failure.INTERNAL);
    }
    return AgentError.find(t)
        .flatMap(AgentError::safeMessage)
        .map(m -> CodeModeException.withDetail(Failure.CAPABILITY_FAILURE, m))
        .orElse(CodeModeException.of(Failure.CAPABILITY_FAILURE));
  }
}
