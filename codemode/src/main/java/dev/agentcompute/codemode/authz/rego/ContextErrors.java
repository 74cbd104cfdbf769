package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;

/** The error an ended context stands for (Go's {@code ctx.Err()}), as CodeMode classifies it. */
final class ContextErrors {
  private ContextErrors() {}

  static CodeModeException of(Context ctx) {
    return ctx.reason().orElse(Context.Reason.CANCELED) == Context.Reason.DEADLINE_EXCEEDED
        ? CodeModeException.deadline()
        : CodeModeException.of(Failure.CANCELED);
  }
}
