package dev.agentcompute.server;

import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * MCP Streamable HTTP (2025-03-26 and later) on Helidon SE: POST carries client messages (a
 * request's answer comes back as an SSE stream), GET opens the server-to-client stream, DELETE
 * ends a session. Sessions are bound to the identity that created them.
 */
final class StreamableHttpTransport implements McpStreamableServerTransportProvider, HttpService {
  private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());
  static final HeaderName SESSION_ID = HeaderNames.create("Mcp-Session-Id");
  static final HeaderName PROTOCOL_VERSION = HeaderNames.create("MCP-Protocol-Version");
  static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_03_26,
      ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

  /**
   * Tunables; {@link #defaults()} are what the server uses. {@code idleTimeout} ends an MCP session
   * nobody uses; {@code idleConnectionTimeout} closes a TCP connection on which no request arrives (a
   * client that connects and sends nothing, or an idle keep-alive), as the original's 10 s
   * {@code ReadHeaderTimeout} does. Unlike Go's, it does not cut a request whose headers trickle in:
   * Helidon 4.2 has no server-side read timeout. Calls and streams in progress are not idle.
   */
  record Settings(Duration idleTimeout, Duration keepAlive, int maxRequestBytes, Duration idleConnectionTimeout) {
    static Settings defaults() {
      return new Settings(Duration.ofMinutes(30), Duration.ofSeconds(15), 4 * 1024 * 1024, Duration.ofSeconds(10));
    }
  }

  private final McpJsonMapper json;
  private final Function<ServerRequest, Optional<String>> subjects;
  private final BrowserGuard guard;
  private final Settings settings;
  private final LongSupplier nanoClock;
  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private volatile McpStreamableServerSession.Factory sessionFactory;
  private volatile boolean closing;
  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * @param subjects the verified identity of a request, empty when it has none
   * @param guard browser protections applied before anything else
   */
  StreamableHttpTransport(McpJsonMapper json, Function<ServerRequest, Optional<String>> subjects,
      BrowserGuard guard, Settings settings, LongSupplier nanoClock) {
    this.json = json;
    this.subjects = subjects;
    this.guard = guard;
    this.settings = settings;
    this.nanoClock = nanoClock;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.post("/", this::post).get("/", this::get).delete("/", this::delete)
        .any("/", (req, res) -> {
          res.header(HeaderNames.ALLOW, "GET, POST, DELETE");
          error(res, Status.METHOD_NOT_ALLOWED_405, McpSchema.ErrorCodes.INVALID_REQUEST,
              "method not allowed");
        });
  }

  @Override
  public List<String> protocolVersions() {
    return VERSIONS;
  }

  @Override
  public void setSessionFactory(McpStreamableServerSession.Factory factory) {
    this.sessionFactory = factory;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return Flux.fromIterable(sessions.values())
        .flatMap(s -> s.mcp.sendNotification(method, params)
            .onErrorResume(e -> Mono.empty()))
        .then();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> {
      closing = true;
      sessions.values().forEach(s -> {
        s.closeStreams();
        s.mcp.closeGracefully().onErrorResume(e -> Mono.empty()).block(Duration.ofSeconds(2));
      });
      sessions.clear();
    });
  }

  int sessionCount() {
    return sessions.size();
  }

  /** From now on new POSTs get 503 and listening streams end; requests in flight continue. */
  void beginDrain() {
    closing = true;
    sessions.values().forEach(HttpSession::closeListeningStreams);
  }

  /** Waits until no POST is being answered, or the timeout passes. */
  void awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Ends sessions idle for longer than the timeout; called periodically. */
  int expireIdleSessions() {
    long cutoff = nanoClock.getAsLong() - settings.idleTimeout().toNanos();
    int expired = 0;
    for (Map.Entry<String, HttpSession> e : sessions.entrySet()) {
      if (e.getValue().idleSince(cutoff) && sessions.remove(e.getKey(), e.getValue())) {
        e.getValue().closeStreams();
        e.getValue().mcp.delete().onErrorResume(x -> Mono.empty()).subscribe();
        expired++;
      }
    }
    if (expired > 0) {
      LOG.fine("expired idle sessions count=" + expired);
    }
    return expired;
  }

  // ---------------------------------------------------------------------------------- POST

  private void post(ServerRequest req, ServerResponse res) {
    inFlight.incrementAndGet();
    try {
      handlePost(req, res);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void handlePost(ServerRequest req, ServerResponse res) {
    if (refused(req, res)) {
      return;
    }
    if (closing) {
      error(res, Status.SERVICE_UNAVAILABLE_503, McpSchema.ErrorCodes.INTERNAL_ERROR,
          "server is shutting down");
      return;
    }
    if (!req.headers().contentType().map(t -> t.mediaType().text().equals("application/json"))
        .orElse(false)) {
      error(res, Status.UNSUPPORTED_MEDIA_TYPE_415, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Content-Type must be application/json");
      return;
    }
    if (!accepts(req, "application/json") || !accepts(req, "text/event-stream")) {
      error(res, Status.NOT_ACCEPTABLE_406, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Accept must include both application/json and text/event-stream");
      return;
    }
    String body;
    try {
      body = readBody(req);
    } catch (TooLarge e) {
      error(res, Status.REQUEST_ENTITY_TOO_LARGE_413, McpSchema.ErrorCodes.INVALID_REQUEST,
          "request body exceeds " + settings.maxRequestBytes() + " bytes");
      return;
    } catch (IOException e) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.PARSE_ERROR,
          "cannot read request body");
      return;
    }
    if (body.stripLeading().startsWith("[")) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST,
          "JSON-RPC batches are not supported");
      return;
    }
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(json, body);
    } catch (IOException | RuntimeException e) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.PARSE_ERROR,
          "invalid JSON-RPC message");
      return;
    }
    String subject = subjects.apply(req).orElse("");
    if (message instanceof McpSchema.JSONRPCRequest request
        && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
      initialize(request, subject, res);
      return;
    }
    Optional<HttpSession> session = session(req, res, subject);
    if (session.isEmpty()) {
      return;
    }
    if (!protocolVersionOk(req, res)) {
      return;
    }
    HttpSession s = session.get();
    // Completes when this request's client is gone (its response stream cannot be written): the
    // tool call is then cancelled, as Go cancels a request's context when its client disconnects.
    CompletableFuture<Void> callerGone = new CompletableFuture<>();
    McpTransportContext context = context(subject, s.mcp.getId(), callerGone);
    try {
      switch (message) {
        case McpSchema.JSONRPCNotification n -> {
          s.mcp.accept(n).contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
          res.status(Status.ACCEPTED_202).send();
        }
        case McpSchema.JSONRPCResponse r -> {
          s.mcp.accept(r).contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
          res.status(Status.ACCEPTED_202).send();
        }
        case McpSchema.JSONRPCRequest r -> respondOverSse(s, r, context, callerGone, res);
        default -> error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST,
            "unsupported JSON-RPC message");
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "MCP message handling failed", e);
      if (!res.isSent()) {
        error(res, Status.INTERNAL_SERVER_ERROR_500, McpSchema.ErrorCodes.INTERNAL_ERROR,
            "internal failure");
      }
    }
  }

  private void initialize(McpSchema.JSONRPCRequest request, String subject, ServerResponse res) {
    McpStreamableServerSession.Factory factory = sessionFactory;
    if (factory == null) {
      error(res, Status.SERVICE_UNAVAILABLE_503, McpSchema.ErrorCodes.INTERNAL_ERROR,
          "server is not ready");
      return;
    }
    McpSchema.InitializeRequest init;
    try {
      init = json.convertValue(request.params(), McpSchema.InitializeRequest.class);
    } catch (RuntimeException e) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_PARAMS,
          "invalid initialize parameters");
      return;
    }
    McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(init);
    McpSchema.InitializeResult result;
    try {
      result = started.initResult()
          .contextWrite(c -> c.put(McpTransportContext.KEY,
              context(subject, started.session().getId())))
          .block();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "MCP initialize failed", e);
      error(res, Status.INTERNAL_SERVER_ERROR_500, McpSchema.ErrorCodes.INTERNAL_ERROR,
          "initialize failed");
      return;
    }
    String id = started.session().getId();
    sessions.put(id, new HttpSession(started.session(), subject, nanoClock.getAsLong()));
    try {
      byte[] bytes = json.writeValueAsBytes(
          new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null));
      res.status(Status.OK_200)
          .header(HeaderNames.CONTENT_TYPE, "application/json")
          .header(SESSION_ID, id)
          .send(bytes);
    } catch (IOException e) {
      error(res, Status.INTERNAL_SERVER_ERROR_500, McpSchema.ErrorCodes.INTERNAL_ERROR,
          "cannot serialise the initialize result");
    }
  }

  private void respondOverSse(HttpSession s, McpSchema.JSONRPCRequest request,
      McpTransportContext context, CompletableFuture<Void> callerGone, ServerResponse res) {
    sseHeaders(res, s);
    try (var out = res.outputStream()) {
      SseStream stream = new SseStream(json, out, callerGone);
      s.opened(stream, false);
      // Keep-alive comments while the request runs: besides keeping proxies from timing the
      // stream out, a failed write is how a client that went away is noticed.
      Thread.ofVirtual().name("mcp-request-keepalive").start(() -> stream.awaitClose(settings.keepAlive()));
      try {
        s.mcp.responseStream(request, stream)
            .contextWrite(c -> c.put(McpTransportContext.KEY, context))
            .block();
      } finally {
        stream.close();
        s.finished(stream);
        s.touch(nanoClock.getAsLong());
      }
    } catch (IOException e) {
      LOG.fine("client closed the response stream early");
    }
  }

  /** The headers that open an SSE response of session {@code s}. */
  private static void sseHeaders(ServerResponse res, HttpSession s) {
    res.status(Status.OK_200)
        .header(HeaderNames.CONTENT_TYPE, "text/event-stream")
        .header(HeaderNames.CACHE_CONTROL, "no-cache")
        .header(SESSION_ID, s.mcp.getId());
  }

  // ----------------------------------------------------------------------------------- GET

  private void get(ServerRequest req, ServerResponse res) {
    if (refused(req, res)) {
      return;
    }
    if (!accepts(req, "text/event-stream")) {
      error(res, Status.NOT_ACCEPTABLE_406, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Accept must include text/event-stream");
      return;
    }
    String subject = subjects.apply(req).orElse("");
    Optional<HttpSession> session = session(req, res, subject);
    if (session.isEmpty() || !protocolVersionOk(req, res)) {
      return;
    }
    if (closing) {
      error(res, Status.SERVICE_UNAVAILABLE_503, McpSchema.ErrorCodes.INTERNAL_ERROR,
          "server is shutting down");
      return;
    }
    HttpSession s = session.get();
    sseHeaders(res, s);
    try (var out = res.outputStream()) {
      SseStream stream = new SseStream(json, out);
      s.opened(stream, true);
      var listening = s.mcp.listeningStream(stream);
      // An empty comment commits the headers so the client sees the stream open at once.
      stream.write(": stream open\n\n");
      try {
        stream.awaitClose(settings.keepAlive());
      } finally {
        listening.close();
        s.finished(stream);
        s.touch(nanoClock.getAsLong());
      }
    } catch (IOException e) {
      LOG.fine("client closed the listening stream");
    }
  }

  // -------------------------------------------------------------------------------- DELETE

  private void delete(ServerRequest req, ServerResponse res) {
    if (refused(req, res)) {
      return;
    }
    String subject = subjects.apply(req).orElse("");
    Optional<HttpSession> session = session(req, res, subject);
    if (session.isEmpty() || !protocolVersionOk(req, res)) {
      return;
    }
    HttpSession s = session.get();
    sessions.remove(s.mcp.getId(), s);
    s.closeStreams();
    try {
      s.mcp.delete().block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "session delete failed", e);
    }
    res.status(Status.OK_200).send();
  }

  // ------------------------------------------------------------------------------- helpers

  private boolean refused(ServerRequest req, ServerResponse res) {
    Optional<String> why = guard.refusal(req);
    why.ifPresent(reason -> error(res, Status.FORBIDDEN_403, McpSchema.ErrorCodes.INVALID_REQUEST,
        "Forbidden: " + reason));
    return why.isPresent();
  }

  /** The session named by the request, answering 400/404/403 itself when there is none. */
  private Optional<HttpSession> session(ServerRequest req, ServerResponse res, String subject) {
    Optional<String> id = req.headers().first(SESSION_ID);
    if (id.isEmpty() || id.get().isBlank()) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required");
      return Optional.empty();
    }
    HttpSession s = sessions.get(id.get());
    if (s == null) {
      error(res, Status.NOT_FOUND_404, -32001, "Session not found");
      return Optional.empty();
    }
    if (!s.owner.equals(subject)) {
      error(res, Status.FORBIDDEN_403, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Forbidden: session belongs to another identity");
      return Optional.empty();
    }
    s.touch(nanoClock.getAsLong());
    return Optional.of(s);
  }

  /** After initialize a client sends MCP-Protocol-Version; absent means 2025-03-26. */
  private boolean protocolVersionOk(ServerRequest req, ServerResponse res) {
    Optional<String> version = req.headers().first(PROTOCOL_VERSION);
    if (version.isPresent() && !VERSIONS.contains(version.get())) {
      error(res, Status.BAD_REQUEST_400, McpSchema.ErrorCodes.INVALID_REQUEST,
          "Bad Request: Unsupported protocol version: " + version.get()
              + " (supported versions: " + String.join(", ", VERSIONS) + ")");
      return false;
    }
    return true;
  }

  private static boolean accepts(ServerRequest req, String mediaType) {
    return req.headers().values(HeaderNames.ACCEPT).stream()
        .flatMap(v -> java.util.Arrays.stream(v.split(",")))
        .map(v -> v.split(";")[0].strip())
        .anyMatch(v -> v.equals(mediaType) || v.equals("*/*"));
  }

  private String readBody(ServerRequest req) throws IOException {
    int limit = settings.maxRequestBytes();
    if (req.headers().contentLength().orElse(0) > limit) {
      throw new TooLarge();
    }
    try (InputStream in = req.content().inputStream()) {
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        throw new TooLarge();
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  private static McpTransportContext context(String subject, String sessionId) {
    return context(subject, sessionId, null);
  }

  private static McpTransportContext context(String subject, String sessionId,
      CompletableFuture<Void> callerGone) {
    Map<String, Object> values = new LinkedHashMap<>();
    if (callerGone != null) {
      values.put(CodeModeMcp.CANCELLATION_CONTEXT_KEY, callerGone);
    }
    values.put(TransportContextKeys.SUBJECT, subject);
    values.put(Subject.TRANSPORT_CONTEXT_KEY, new Subject(subject));
    values.put(TransportContextKeys.SESSION_ID, sessionId);
    values.put(TransportContextKeys.TRANSPORT, "http");
    return McpTransportContext.create(values);
  }

  /** A JSON-RPC error body without an id (the SDK's record refuses a null id). */
  private void error(ServerResponse res, Status status, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("jsonrpc", "2.0");
    body.put("id", null);
    body.put("error", error);
    try {
      res.status(status).header(HeaderNames.CONTENT_TYPE, "application/json")
          .send(json.writeValueAsBytes(body));
    } catch (IOException e) {
      res.status(status).send();
    }
  }

  private static final class TooLarge extends IOException {
    TooLarge() {
      super("request body too large", null);
    }
  }
}
