package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Subject;

/**
 * Implements one capability. Runs on the host after argument binding and authorization, possibly
 * concurrently with other calls. Throw {@link AgentError} to tell the model what went wrong; any
 * other exception reads {@code capability failed}; a RuntimeException or Error (a bug) reads {@code
 * internal failure}. Honour {@link Context#isDone()}: an abandoned call is not waited for.
 */
@FunctionalInterface
public interface Handler<I extends Record, O extends Record> {

  O handle(Context ctx, Subject subject, I input) throws Exception;
}
