package dev.agentcompute.server.http;

import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.server.admin.ExecuteWatch;
import dev.agentcompute.server.mcp.TransportContextKeys;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What every MCP exchange over HTTP starts with: the browser guard, the caller's session (bound to
 * its identity) and the protocol version, each answering its own refusal; and the transport context
 * a call runs with.
 */
final class Exchanges {
  private final JsonRpcReplies replies;
  private final BrowserGuard guard;
  private final SessionRegistry sessions;

  Exchanges(JsonRpcReplies replies, BrowserGuard guard, SessionRegistry sessions) {
    this.replies = replies;
    this.guard = guard;
    this.sessions = sessions;
  }

  boolean refused(ServerRequest req, ServerResponse res) {
    Optional<String> why = guard.refusal(req);
    why.ifPresent(
        reason ->
            replies.error(
                res,
                Status.FORBIDDEN_403,
                McpSchema.ErrorCodes.INVALID_REQUEST,
                "Forbidden: " + reason));
    return why.isPresent();
  }

  /** The session named by the request, answering 400/404/403 itself when there is none. */
  Optional<HttpSession> session(ServerRequest req, ServerResponse res, String subject) {
    SessionRegistry.Lookup lookup =
        sessions.find(req.headers().first(RequestChecks.SESSION_ID), subject);
    lookup
        .refusal()
        .ifPresent(
            refusal -> {
              switch (refusal) {
                case MISSING ->
                    replies.error(
                        res,
                        Status.BAD_REQUEST_400,
                        McpSchema.ErrorCodes.INVALID_REQUEST,
                        "Bad Request: Mcp-Session-Id header is required");
                case UNKNOWN ->
                    replies.error(res, Status.NOT_FOUND_404, -32001, "Session not found");
                case OTHER_IDENTITY ->
                    replies.error(
                        res,
                        Status.FORBIDDEN_403,
                        McpSchema.ErrorCodes.INVALID_REQUEST,
                        "Forbidden: session belongs to another identity");
              }
            });
    return lookup.session();
  }

  boolean protocolVersionOk(ServerRequest req, ServerResponse res) {
    Optional<String> problem = RequestChecks.protocolVersionProblem(req);
    problem.ifPresent(
        p -> replies.error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST, p));
    return problem.isEmpty();
  }

  static McpTransportContext context(String subject, String sessionId) {
    return context(subject, sessionId, null);
  }

  static McpTransportContext context(
      String subject, String sessionId, CompletableFuture<Void> callerGone) {
    Map<String, Object> values = new LinkedHashMap<>();
    if (callerGone != null) {
      values.put(CodeModeMcp.CANCELLATION_CONTEXT_KEY, callerGone);
      // An execute on this request is listed with its call in progress and can be cancelled.
      values.put(CodeModeMcp.OBSERVER_CONTEXT_KEY, new ExecuteWatch(callerGone));
      // An execute on this request has this id, made here so the running-executes list and the
      // result's _meta name it alike (CodeMode uses an id it finds in the transport context).
      values.put(ExecuteIds.META_KEY, ExecuteIds.next());
    }
    values.put(TransportContextKeys.SUBJECT, subject);
    values.put(Subject.TRANSPORT_CONTEXT_KEY, new Subject(subject));
    values.put(TransportContextKeys.SESSION_ID, sessionId);
    values.put(TransportContextKeys.TRANSPORT, "http");
    return McpTransportContext.create(values);
  }

  /** The headers that open an SSE response of session {@code s}. */
  static void sseHeaders(ServerResponse res, HttpSession s) {
    res.status(Status.OK_200)
        .header(HeaderNames.CONTENT_TYPE, "text/event-stream")
        .header(HeaderNames.CACHE_CONTROL, "no-cache")
        .header(RequestChecks.SESSION_ID, s.mcp.getId());
  }
}
