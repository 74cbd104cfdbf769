package dev.agentcompute.server.http;

import dev.agentcompute.codemode.mcp.ResourceRequests;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * MCP Streamable HTTP (2025-03-26 and later) on Helidon SE: POST carries client messages (a
 * request's answer comes back as an SSE stream), GET opens the server-to-client stream, DELETE ends
 * a session. Sessions are bound to the identity that created them ({@link SessionRegistry}); every
 * header and body rule is in {@link RequestChecks} and {@link JsonRpcShape}, so a malformed message
 * gets a JSON-RPC error before the MCP SDK sees it.
 */
public final class StreamableHttpTransport
    implements McpStreamableServerTransportProvider, HttpService {
  private static final Logger LOG = System.getLogger(StreamableHttpTransport.class.getName());

  /**
   * Tunables; {@link #defaults()} are what the server uses. {@code idleTimeout} ends an MCP session
   * nobody uses; {@code idleConnectionTimeout} closes a TCP connection on which no request arrives
   * (a client that connects and sends nothing, or an idle keep-alive), as the original's 10 s
   * {@code ReadHeaderTimeout} does. Unlike Go's, it does not cut a request whose headers trickle in
   * by itself; {@link HeaderDeadline} adds that, with the same timeout, from the request line to
   * the end of the headers. Calls and streams in progress are not idle. {@code limits} are the
   * session, connection and request caps.
   */
  public record Settings(
      Duration idleTimeout,
      Duration keepAlive,
      int maxRequestBytes,
      Duration idleConnectionTimeout,
      FrontDoor limits) {
    public Settings(
        Duration idleTimeout,
        Duration keepAlive,
        int maxRequestBytes,
        Duration idleConnectionTimeout) {
      this(idleTimeout, keepAlive, maxRequestBytes, idleConnectionTimeout, FrontDoor.defaults());
    }

    public static Settings defaults() {
      return new Settings(
          Duration.ofMinutes(30), Duration.ofSeconds(15), 4 * 1024 * 1024, Duration.ofSeconds(10));
    }

    /** These settings with other caps and header timeout. */
    public Settings with(FrontDoor limits, Duration headerTimeout) {
      return new Settings(idleTimeout, keepAlive, maxRequestBytes, headerTimeout, limits);
    }
  }

  private final McpJsonMapper json;
  private final JsonRpcReplies replies;
  private final Function<ServerRequest, Optional<String>> subjects;
  private final BrowserGuard guard;
  private final Settings settings;
  private final SessionRegistry sessions;
  private final Exchanges exchanges;
  private final McpPost post;
  private volatile McpStreamableServerSession.Factory sessionFactory;
  private volatile boolean closing;

  /** What a refused request is told once {@link #closing} is set. */
  private volatile String closingReason = "server is shutting down";

  /**
   * @param subjects the verified identity of a request, empty when it has none
   * @param guard browser protections applied before anything else
   */
  StreamableHttpTransport(
      McpJsonMapper json,
      Function<ServerRequest, Optional<String>> subjects,
      BrowserGuard guard,
      Settings settings,
      LongSupplier nanoClock) {
    this(json, subjects, guard, settings, nanoClock, Optional.empty());
  }

  /**
   * @param resources answers the resources methods per caller, when the server offers resources
   */
  StreamableHttpTransport(
      McpJsonMapper json,
      Function<ServerRequest, Optional<String>> subjects,
      BrowserGuard guard,
      Settings settings,
      LongSupplier nanoClock,
      Optional<ResourceRequests> resources) {
    this.json = json;
    this.replies = new JsonRpcReplies(json);
    this.subjects = subjects;
    this.guard = guard;
    this.settings = settings;
    this.sessions =
        new SessionRegistry(
            settings.idleTimeout(),
            nanoClock,
            settings.limits().maxSessions(),
            settings.limits().maxSessionsPerIdentity());
    this.exchanges = new Exchanges(replies, guard, sessions);
    this.post =
        new McpPost(
            json,
            replies,
            exchanges,
            sessions,
            subjects,
            settings,
            () -> sessionFactory,
            () -> closing ? closingReason : null,
            resources);
  }

  @Override
  public void routing(HttpRules rules) {
    rules
        .post("/", post::post)
        .get("/", this::get)
        .delete("/", this::delete)
        .any(
            "/",
            (req, res) -> {
              res.header(HeaderNames.ALLOW, "GET, POST, DELETE");
              replies.error(
                  res,
                  Status.METHOD_NOT_ALLOWED_405,
                  McpSchema.ErrorCodes.INVALID_REQUEST,
                  "method not allowed");
            });
  }

  @Override
  public List<String> protocolVersions() {
    return RequestChecks.VERSIONS;
  }

  @Override
  public void setSessionFactory(McpStreamableServerSession.Factory factory) {
    this.sessionFactory = factory;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return Flux.fromIterable(sessions.all())
        .flatMap(s -> s.mcp.sendNotification(method, params).onErrorResume(e -> Mono.empty()))
        .then();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(
        () -> {
          closing = true;
          sessions.closeAll();
        });
  }

  int sessionCount() {
    return sessions.size();
  }

  /**
   * From now on new POSTs get 503 with {@code reason}, every session is told so with a warning log
   * notification, and listening streams end; requests in flight continue.
   */
  void beginDrain(String reason) {
    closingReason = reason;
    closing = true;
    try {
      notifyClients(
              McpSchema.METHOD_NOTIFICATION_MESSAGE,
              McpSchema.LoggingMessageNotification.builder()
                  .level(McpSchema.LoggingLevel.WARNING)
                  .logger("agentcompute")
                  .data(reason)
                  .build())
          .block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      // A client that cannot be told still gets the 503 with the same text on its next request.
      LOG.log(Level.DEBUG, "drain notification not delivered: " + e.getMessage());
    }
    sessions.closeListeningStreams();
  }

  boolean draining() {
    return closing;
  }

  /** Waits until no POST is being answered, or the timeout passes. */
  void awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (post.inFlight() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Ends every session of these identities. */
  int closeSessionsOf(java.util.Set<String> identities) {
    return sessions.closeOwnedBy(identities);
  }

  /** Ends sessions idle for longer than the timeout; called periodically. */
  int expireIdleSessions() {
    return sessions.expireIdle();
  }

  // ----------------------------------------------------------------------------------- GET

  private void get(ServerRequest req, ServerResponse res) {
    if (exchanges.refused(req, res)) {
      return;
    }
    if (!RequestChecks.accepts(req, "text/event-stream")) {
      replies.error(
          res,
          Status.NOT_ACCEPTABLE_406,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Accept must include text/event-stream");
      return;
    }
    String subject = subjects.apply(req).orElse("");
    Optional<HttpSession> session = exchanges.session(req, res, subject);
    if (session.isEmpty() || !exchanges.protocolVersionOk(req, res)) {
      return;
    }
    if (closing) {
      replies.error(
          res, Status.SERVICE_UNAVAILABLE_503, McpSchema.ErrorCodes.INTERNAL_ERROR, closingReason);
      return;
    }
    HttpSession s = session.get();
    Exchanges.sseHeaders(res, s);
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
        sessions.touch(s);
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "client closed the listening stream");
    }
  }

  // -------------------------------------------------------------------------------- DELETE

  private void delete(ServerRequest req, ServerResponse res) {
    if (exchanges.refused(req, res)) {
      return;
    }
    String subject = subjects.apply(req).orElse("");
    Optional<HttpSession> session = exchanges.session(req, res, subject);
    if (session.isEmpty() || !exchanges.protocolVersionOk(req, res)) {
      return;
    }
    HttpSession s = session.get();
    sessions.remove(s);
    s.closeStreams();
    try {
      s.mcp.delete().block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "session delete failed", e);
    }
    res.status(Status.OK_200).send();
  }
}
