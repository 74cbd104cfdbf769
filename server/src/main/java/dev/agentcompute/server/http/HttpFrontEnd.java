package dev.agentcompute.server.http;

import dev.agentcompute.server.auth.BearerAuthentication;
import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.mcp.McpServerAssembly;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The HTTP side of the server: Helidon SE on virtual threads with the MCP endpoint at {@code /mcp}
 * (behind bearer authentication when tokens are configured) plus whatever operational routes the
 * caller adds (health, metrics).
 */
public final class HttpFrontEnd implements AutoCloseable {
  static final String DEVELOPMENT_SUBJECT = "development";
  static final String MCP_PATH = "/mcp";

  private final WebServer server;
  private final StreamableHttpTransport transport;
  private final McpSyncServer mcp;
  private final ScheduledExecutorService sweeper;

  private HttpFrontEnd(
      WebServer server,
      StreamableHttpTransport transport,
      McpSyncServer mcp,
      ScheduledExecutorService sweeper) {
    this.server = server;
    this.transport = transport;
    this.mcp = mcp;
    this.sweeper = sweeper;
  }

  /**
   * Builds and starts the listener.
   *
   * @param tokens bearer identities; empty means unauthenticated with subject development
   * @param extraFeatures hook to add operational features (observe) to the server builder
   */
  public static HttpFrontEnd start(
      ListenAddress address,
      Optional<BearerTokens> tokens,
      McpServerAssembly assembly,
      StreamableHttpTransport.Settings settings,
      Consumer<WebServerConfig.Builder> extraFeatures) {
    return start(
        address, tokens, assembly, settings, extraFeatures, BearerAuthentication.Failures.NONE);
  }

  /** As above; {@code failures} hears every request refused with 401. */
  public static HttpFrontEnd start(
      ListenAddress address,
      Optional<BearerTokens> tokens,
      McpServerAssembly assembly,
      StreamableHttpTransport.Settings settings,
      Consumer<WebServerConfig.Builder> extraFeatures,
      BearerAuthentication.Failures failures) {
    Function<ServerRequest, Optional<String>> subjects =
        tokens.isPresent()
            ? BearerAuthentication::subject
            : req -> Optional.of(DEVELOPMENT_SUBJECT);
    StreamableHttpTransport transport =
        new StreamableHttpTransport(
            McpJsonDefaults.getMapper(),
            subjects,
            new BrowserGuard(tokens.isEmpty()),
            settings,
            System::nanoTime,
            assembly.resources(Optional.empty()));
    McpSyncServer mcp = assembly.build(McpServer.sync(transport), Optional.empty());

    FrontDoor limits = settings.limits();
    HeaderDeadline headerDeadline =
        new HeaderDeadline(settings.idleConnectionTimeout(), System::nanoTime);
    RequestCap requestCap = new RequestCap(limits.maxConcurrentRequests());
    WebServerConfig.Builder builder =
        WebServer.builder()
            // Ours is the only HTTP/1.1 selector: with a second one Helidon would read a
            // connection's first bytes to choose, and a silent connection would escape the idle
            // timeout while it waits there.
            .protocolsDiscoverServices(false)
            .addConnectionSelector(new ConnectionCap(limits.maxConnections(), headerDeadline))
            .maxTcpConnections(2 * limits.maxConnections())
            .host(address.bindHost())
            .port(address.port())
            .maxPayloadSize(settings.maxRequestBytes())
            // A response is small writes (headers, one SSE event, the end): with Nagle's algorithm
            // each waited for the client's delayed ACK, 20 to 60 ms per call at one session.
            .connectionOptions(o -> o.tcpNoDelay(true))
            .idleConnectionTimeout(settings.idleConnectionTimeout())
            .idleConnectionPeriod(settings.idleConnectionTimeout().dividedBy(4))
            .shutdownHook(false)
            .featuresDiscoverServices(false);
    extraFeatures.accept(builder);
    builder.routing(
        (HttpRouting.Builder r) -> {
          r.addFilter(requestCap::filter);
          // Before authentication: a request that carries two credentials is ambiguous.
          r.addFilter(
              (chain, req, res) -> {
                if (req.headers().values(HeaderNames.AUTHORIZATION).size() > 1) {
                  new JsonRpcReplies(McpJsonDefaults.getMapper())
                      .error(
                          res,
                          Status.BAD_REQUEST_400,
                          McpSchema.ErrorCodes.INVALID_REQUEST,
                          "Bad Request: send exactly one Authorization header");
                  return;
                }
                chain.proceed();
              });
          tokens.ifPresent(
              t -> r.addFilter(new BearerAuthentication(t, List.of(MCP_PATH), failures)::filter));
          r.register(MCP_PATH, transport);
        });
    WebServer server = builder.build().start();

    ScheduledExecutorService sweeper =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("mcp-session-sweeper").factory());
    long period = Math.max(1, Math.min(60_000, settings.idleTimeout().toMillis() / 4));
    sweeper.scheduleAtFixedRate(
        transport::expireIdleSessions, period, period, TimeUnit.MILLISECONDS);
    long headerPeriod = Math.max(10, settings.idleConnectionTimeout().toMillis() / 4);
    sweeper.scheduleAtFixedRate(
        headerDeadline::sweep, headerPeriod, headerPeriod, TimeUnit.MILLISECONDS);
    return new HttpFrontEnd(server, transport, mcp, sweeper);
  }

  public int port() {
    return server.port();
  }

  /** True once {@link #drainAndStop} has begun: the server takes no new work. */
  public boolean draining() {
    return transport.draining();
  }

  public int sessionCount() {
    return transport.sessionCount();
  }

  /** Ends every MCP session of these identities at once (their token was revoked). */
  public int closeSessionsOf(java.util.Set<String> identities) {
    return transport.closeSessionsOf(identities);
  }

  /**
   * Stops accepting MCP work (new requests get 503 naming the drain, clients are told with a log
   * notification), lets requests in flight finish for up to {@code drain}, then closes sessions and
   * the listener. The listener keeps answering /health meanwhile, so a load balancer sees
   * /health/ready go down (see {@link #draining()}).
   */
  public void drainAndStop(Duration drain) {
    drainAndStop(drain, () -> {});
  }

  /**
   * {@link #drainAndStop(Duration)}, running {@code draining} once new requests are refused and
   * before the wait: what it announces (the "shutting down" log line) is then already true.
   */
  public void drainAndStop(Duration drain, Runnable draining) {
    transport.beginDrain(
        "server is shutting down: requests in flight may finish within "
            + drain.toSeconds()
            + " s (http.drain_timeout_seconds = "
            + drain.toSeconds()
            + "), new requests are refused; reconnect to another server or retry after the"
            + " restart");
    draining.run();
    transport.awaitIdle(drain);
    sweeper.shutdownNow();
    mcp.closeGracefully();
    server.stop();
  }

  @Override
  public void close() {
    drainAndStop(Duration.ZERO);
  }
}
