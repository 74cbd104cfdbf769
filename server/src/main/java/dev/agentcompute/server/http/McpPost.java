package dev.agentcompute.server.http;

import dev.agentcompute.codemode.mcp.ResourceRequests;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * A POST to the MCP endpoint: the client's one message. {@code initialize} starts a session;
 * notifications and responses are taken (202) or refused (400); a request is answered on an SSE
 * stream. Malformed input is answered before the SDK sees it (JSON-RPC parse error, invalid
 * request, or invalid params as the request's own error response).
 */
final class McpPost {
  private static final Logger LOG = System.getLogger(McpPost.class.getName());

  private final McpJsonMapper json;
  private final JsonRpcReplies replies;
  private final Exchanges exchanges;
  private final SessionRegistry sessions;
  private final Function<ServerRequest, Optional<String>> subjects;
  private final StreamableHttpTransport.Settings settings;
  private final Supplier<McpStreamableServerSession.Factory> sessionFactory;

  /** Why new work is refused (the drain), or null while the server takes work. */
  private final Supplier<String> closing;

  private final AtomicInteger inFlight = new AtomicInteger();
  private final Optional<ResourceRequests> resources;

  McpPost(
      McpJsonMapper json,
      JsonRpcReplies replies,
      Exchanges exchanges,
      SessionRegistry sessions,
      Function<ServerRequest, Optional<String>> subjects,
      StreamableHttpTransport.Settings settings,
      Supplier<McpStreamableServerSession.Factory> sessionFactory,
      Supplier<String> closing,
      Optional<ResourceRequests> resources) {
    this.resources = resources;
    this.json = json;
    this.replies = replies;
    this.exchanges = exchanges;
    this.sessions = sessions;
    this.subjects = subjects;
    this.settings = settings;
    this.sessionFactory = sessionFactory;
    this.closing = closing;
  }

  /** POSTs being answered now (the drain waits for none). */
  int inFlight() {
    return inFlight.get();
  }

  void post(ServerRequest req, ServerResponse res) {
    inFlight.incrementAndGet();
    try {
      handlePost(req, res);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void handlePost(ServerRequest req, ServerResponse res) {
    if (exchanges.refused(req, res)) {
      return;
    }
    String refusal = closing.get();
    if (refusal != null) {
      replies.error(
          res, Status.SERVICE_UNAVAILABLE_503, McpSchema.ErrorCodes.INTERNAL_ERROR, refusal);
      return;
    }
    if (!RequestChecks.isJson(req)) {
      replies.error(
          res,
          Status.UNSUPPORTED_MEDIA_TYPE_415,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Content-Type must be application/json");
      return;
    }
    if (!RequestChecks.accepts(req, "application/json")
        || !RequestChecks.accepts(req, "text/event-stream")) {
      replies.error(
          res,
          Status.NOT_ACCEPTABLE_406,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Accept must include both application/json and text/event-stream");
      return;
    }
    String body;
    try {
      body = RequestChecks.body(req, settings.maxRequestBytes());
    } catch (RequestChecks.TooLarge e) {
      replies.error(
          res,
          Status.REQUEST_ENTITY_TOO_LARGE_413,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "request body exceeds " + settings.maxRequestBytes() + " bytes");
      return;
    } catch (IOException e) {
      replies.error(
          res,
          Status.BAD_REQUEST_400,
          McpSchema.ErrorCodes.PARSE_ERROR,
          "cannot read request body");
      return;
    }
    if (body.stripLeading().startsWith("[")) {
      replies.error(
          res,
          Status.BAD_REQUEST_400,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "JSON-RPC batches are not supported");
      return;
    }
    Optional<McpSchema.JSONRPCMessage> message = parse(body, res);
    if (message.isEmpty()) {
      return;
    }
    String subject = subjects.apply(req).orElse("");
    if (message.get() instanceof McpSchema.JSONRPCRequest request
        && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
      initialize(request, subject, res);
      return;
    }
    Optional<HttpSession> session = exchanges.session(req, res, subject);
    if (session.isEmpty() || !exchanges.protocolVersionOk(req, res)) {
      return;
    }
    dispatch(session.get(), message.get(), subject, res);
  }

  /**
   * The message, or empty after answering: unparsable JSON is a parse error (400); a message that
   * is not acceptable JSON-RPC is an invalid request (400); a request with unusable params gets an
   * invalid-params error response to its id (200, the request was answered).
   */
  private Optional<McpSchema.JSONRPCMessage> parse(String body, ServerResponse res) {
    Object tree;
    try {
      tree = json.readValue(body, Object.class);
    } catch (IOException | RuntimeException e) {
      replies.error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.PARSE_ERROR, "invalid JSON");
      return Optional.empty();
    }
    Optional<JsonRpcShape.Problem> problem = JsonRpcShape.check(tree);
    if (problem.isPresent()) {
      JsonRpcShape.Problem p = problem.get();
      if (p.requestId().isPresent()) {
        replies.errorFor(res, Status.OK_200, p.code(), p.message(), p.requestId().get());
      } else {
        replies.error(res, Status.BAD_REQUEST_400, p.code(), p.message());
      }
      return Optional.empty();
    }
    try {
      return Optional.of(McpSchema.deserializeJsonRpcMessage(json, body));
    } catch (IOException | RuntimeException e) {
      replies.error(
          res,
          Status.BAD_REQUEST_400,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "invalid JSON-RPC message");
      return Optional.empty();
    }
  }

  private void dispatch(
      HttpSession s, McpSchema.JSONRPCMessage message, String subject, ServerResponse res) {
    // Completes when this request's client is gone (its response stream cannot be written): the
    // tool call is then cancelled, as Go cancels a request's context when its client disconnects.
    CompletableFuture<Void> callerGone = new CompletableFuture<>();
    McpTransportContext context = Exchanges.context(subject, s.mcp.getId(), callerGone);
    switch (message) {
      case McpSchema.JSONRPCNotification n -> accept(s, n, context, res, "notification refused");
      case McpSchema.JSONRPCResponse r ->
          accept(s, r, context, res, "no request with id " + r.id() + " is waiting for an answer");
      case McpSchema.JSONRPCRequest r
          when resources.isPresent() && ResourceRequests.handles(r.method()) ->
          respondJson(resources.get().handle(context, r), res);
      case McpSchema.JSONRPCRequest r -> respondOverSse(s, r, context, callerGone, res);
      default ->
          replies.error(
              res,
              Status.BAD_REQUEST_400,
              McpSchema.ErrorCodes.INVALID_REQUEST,
              "unsupported JSON-RPC message");
    }
  }

  /**
   * A resources method, answered per caller by CodeMode's resource registry (not the SDK session):
   * a plain JSON response, which Streamable HTTP allows for any request.
   */
  private void respondJson(McpSchema.JSONRPCResponse response, ServerResponse res) {
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(response);
    } catch (IOException e) {
      replies.errorFor(
          res,
          Status.INTERNAL_SERVER_ERROR_500,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          "cannot serialise the response",
          response.id());
      return;
    }
    res.status(Status.OK_200).header(HeaderNames.CONTENT_TYPE, "application/json").send(bytes);
  }

  /** A notification or response: 202 when the session takes it, else 400 naming why. */
  private void accept(
      HttpSession s,
      McpSchema.JSONRPCMessage message,
      McpTransportContext context,
      ServerResponse res,
      String refusal) {
    try {
      Mono<Void> accepted =
          switch (message) {
            case McpSchema.JSONRPCNotification n -> s.mcp.accept(n);
            case McpSchema.JSONRPCResponse r -> s.mcp.accept(r);
            default -> throw new IllegalArgumentException("not a notification or response");
          };
      accepted.contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "MCP message refused: " + e.getMessage());
      replies.error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST, refusal);
      return;
    }
    res.status(Status.ACCEPTED_202).send();
  }

  private void initialize(McpSchema.JSONRPCRequest request, String subject, ServerResponse res) {
    McpStreamableServerSession.Factory factory = sessionFactory.get();
    if (factory == null) {
      replies.error(
          res,
          Status.SERVICE_UNAVAILABLE_503,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          "server is not ready");
      return;
    }
    McpSchema.InitializeRequest init;
    try {
      init = json.convertValue(request.params(), McpSchema.InitializeRequest.class);
    } catch (RuntimeException e) {
      replies.errorFor(
          res,
          Status.OK_200,
          McpSchema.ErrorCodes.INVALID_PARAMS,
          "invalid initialize parameters",
          request.id());
      return;
    }
    McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(init);
    McpSchema.InitializeResult result;
    try {
      result =
          started
              .initResult()
              .contextWrite(
                  c ->
                      c.put(
                          McpTransportContext.KEY,
                          Exchanges.context(subject, started.session().getId())))
              .block();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "MCP initialize failed", e);
      replies.errorFor(
          res,
          Status.INTERNAL_SERVER_ERROR_500,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          "initialize failed",
          request.id());
      return;
    }
    String id = started.session().getId();
    Optional<SessionRegistry.Full> full =
        sessions.admit(id, new HttpSession(started.session(), subject, sessions.now()));
    if (full.isPresent()) {
      started.session().delete().onErrorResume(e -> Mono.empty()).subscribe();
      replies.errorFor(
          res,
          full.get().key().equals(FrontDoor.MAX_SESSIONS)
              ? Status.SERVICE_UNAVAILABLE_503
              : Status.TOO_MANY_REQUESTS_429,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          full.get().message(),
          request.id());
      return;
    }
    byte[] bytes;
    try {
      bytes =
          json.writeValueAsBytes(
              new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null));
    } catch (IOException e) {
      replies.errorFor(
          res,
          Status.INTERNAL_SERVER_ERROR_500,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          "cannot serialise the initialize result",
          request.id());
      return;
    }
    res.status(Status.OK_200)
        .header(HeaderNames.CONTENT_TYPE, "application/json")
        .header(RequestChecks.SESSION_ID, id)
        .send(bytes);
  }

  /**
   * Answers a request on an SSE stream. Once the stream is open the response has started: a failure
   * from then on is sent on the stream as the request's JSON-RPC error, never as headers.
   */
  private void respondOverSse(
      HttpSession s,
      McpSchema.JSONRPCRequest request,
      McpTransportContext context,
      CompletableFuture<Void> callerGone,
      ServerResponse res) {
    Exchanges.sseHeaders(res, s);
    try (var out = res.outputStream()) {
      SseStream stream = new SseStream(json, out, callerGone);
      s.opened(stream, false);
      // Keep-alive comments while the request runs: besides keeping proxies from timing the
      // stream out, a failed write is how a client that went away is noticed.
      Thread.ofVirtual()
          .name("mcp-request-keepalive")
          .start(() -> stream.awaitClose(settings.keepAlive()));
      try {
        s.mcp
            .responseStream(request, stream)
            .contextWrite(c -> c.put(McpTransportContext.KEY, context))
            .block();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "MCP request handling failed method=" + request.method(), e);
        stream.sendError(request.id(), McpSchema.ErrorCodes.INTERNAL_ERROR, "internal failure");
      } finally {
        stream.close();
        s.finished(stream);
        sessions.touch(s);
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "client closed the response stream early");
    }
  }
}
