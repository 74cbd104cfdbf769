package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.Subject;

/**
 * Names the trusted subject of one tool call from host-owned context only: never from tool
 * arguments, program source or {@code _meta}. No subject ({@code null}), an empty id or a checked
 * exception (Go's returned error) reads {@code unauthenticated}; an unchecked exception is a bug
 * (Go's panic) and reads {@code internal failure}.
 */
@FunctionalInterface
public interface InvocationResolver {

  Subject resolve(Context ctx) throws Exception;

  /** One fixed identity: only for single-user transports such as a local stdio server. */
  static InvocationResolver staticSubject(Subject subject) {
    return ctx -> subject;
  }

  /** The subject the host's authentication stored with {@link Subject#in(Context)}. */
  static InvocationResolver contextSubject() {
    return ctx -> Subject.from(ctx).orElse(null);
  }
}
