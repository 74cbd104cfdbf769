package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.common.McpTransportContext;
import java.util.concurrent.CompletionStage;

/**
 * The {@link Context} and subject of one MCP request, from host-owned transport context only: the
 * subject an HTTP transport authenticated, and the transport's signal that the caller is gone.
 */
final class CallContexts {

  private CallContexts() {}

  /** A cancellable request context; the caller cancels it when the request is over. */
  static Context of(McpTransportContext transport) {
    Context ctx = Context.background().withCancel();
    if (transport != null && transport.get(Subject.TRANSPORT_CONTEXT_KEY) instanceof Subject s) {
      ctx = s.in(ctx);
    }
    if (transport != null
        && transport.get(CodeModeMcp.CANCELLATION_CONTEXT_KEY) instanceof CompletionStage<?> gone) {
      Context callContext = ctx;
      gone.whenComplete((ignored, failure) -> callContext.cancel());
    }
    return ctx;
  }

  /**
   * The caller's subject, or null when the resolver says "not authenticated" (null, an empty id or
   * a checked exception: Go's returned error). An unchecked exception is a resolver bug (Go's
   * panic) and propagates.
   */
  static Subject subject(InvocationResolver resolver, Context ctx) {
    Subject subject;
    try {
      subject = resolver.resolve(ctx);
    } catch (RuntimeException | Error bug) {
      throw bug;
    } catch (Exception refused) {
      return null;
    }
    return subject == null || !subject.isAuthenticated() ? null : subject;
  }
}
