package dev.agentcompute.server;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.incus.IncusClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Wires the server in one readable place, in the spec's startup order: exposure check, tokens,
 * configuration and catalogue, Incus, the MCP tools, the transport, reload, then waits for a
 * shutdown signal and drains.
 */
final class ServerRuntime {
  private static final Log LOG = Log.of(ServerRuntime.class);
  static final CatalogueCheck CATALOGUE = ImageCatalog::load;
  static final Duration DRAIN = Duration.ofSeconds(10);
  static final Duration RELOAD_POLL = Duration.ofSeconds(2);
  static final String STDIO_SUBJECT = "local";

  private ServerRuntime() {}

  static int run(CliArgs cli, Map<String, String> env, InputStream stdin, PrintStream stdout)
      throws InterruptedException {
    boolean http = cli.command() == CliArgs.Command.HTTP;
    if (!http) {
      // stdout carries only JSON-RPC from here on; stray prints land on stderr.
      System.setOut(System.err);
    }
    Path configFile = cli.requireConfig();
    ListenAddress address = null;
    if (http) {
      address = ListenAddress.parse(cli.addr());
      ListenAddress.checkExposure(cli.addr(), address, cli.authTokensFile().isPresent(),
          cli.insecure());
    }
    Optional<BearerTokens> tokens = cli.authTokensFile().map(BearerTokensFile::load);

    LoadedConfig loaded = ConfigLoader.load(configFile);
    String catalogueDigest = ConfigReloader.validateCatalogue(loaded.config(), CATALOGUE);
    LiveConfig live = new LiveConfig(loaded, catalogueDigest, Instant.now());
    applyLogLevel(live.current(), cli.logLevel());
    live.subscribe(state -> applyLogLevel(state, cli.logLevel()));
    LOG.info("configuration loaded", "file", loaded.file(), "digest", loaded.shortDigest(),
        "commit", loaded.gitCommit().orElse("none"));

    ServerMetrics metrics = ServerMetrics.global();
    Operations operations = new Operations(live, Version.current(), Instant.now());
    ShutdownSignal signal = ShutdownSignal.install();
    try (IncusClient incus = IncusConnection.open(loaded.config().incus(), env,
             new IncusCallMetrics(metrics));
         OvnConnection ovn = OvnConnection.open(loaded.config().incus());
         ComputeGenerations compute = ComputeGenerations.start(loaded.config(), catalogueDigest,
             new Backends(incus, ovn.northbound()));
         ConfigReloader reloader = new ConfigReloader(live, CATALOGUE, List.of(compute), metrics,
             RELOAD_POLL, Clock.systemUTC())) {
      operations.addReadinessCheck(IncusConnection.readiness(incus));
      ovn.readiness().ifPresent(operations::addReadinessCheck);
      operations.addReadinessCheck(compute.readiness());
      McpServerAssembly assembly = ToolWiring.assembly(compute, metrics);
      reloader.start();
      return http
          ? serveHttp(address, tokens, assembly, operations, metrics, signal)
          : serveStdio(assembly, stdin, stdout, signal);
    }
  }

  private static int serveHttp(ListenAddress address, Optional<BearerTokens> tokens,
      McpServerAssembly assembly, Operations operations, ServerMetrics metrics,
      ShutdownSignal signal) throws InterruptedException {
    HttpFrontEnd front = HttpFrontEnd.start(address, tokens, assembly,
        StreamableHttpTransport.Settings.defaults(), b -> b.addFeature(operations.feature()));
    metrics.sessions(front::sessionCount);
    String shownHost = address.host().contains(":") ? "[" + address.host() + "]"
        : address.host();
    LOG.info("listening", "addr", shownHost + ":" + front.port(),
        "auth", tokens.isPresent() ? "bearer" : "none",
        "identities", tokens.map(t -> String.join(",", t.identities())).orElse("development"));
    String why = signal.await();
    LOG.info("shutting down", "drain_timeout", "10s", "signal", why);
    front.drainAndStop(DRAIN);
    LOG.info("shut down cleanly");
    return Commands.OK;
  }

  private static int serveStdio(McpServerAssembly assembly, InputStream stdin,
      PrintStream protocolOut, ShutdownSignal signal) throws InterruptedException {
    StdioServerTransportProvider transport = new StdioServerTransportProvider(
        McpJsonDefaults.getMapper(),
        new EofSignallingInput(stdin, () -> signal.trigger("stdin closed")), protocolOut);
    McpSyncServer mcp = assembly.build(McpServer.sync(transport), Optional.of(STDIO_SUBJECT));
    LOG.info("serving over stdio");
    String why = signal.await();
    LOG.info("shutting down", "reason", why);
    mcp.closeGracefully();
    LOG.info("shut down cleanly");
    return Commands.OK;
  }

  private static void applyLogLevel(LiveConfig.State state, LogLevel fromCli) {
    Logging.setLevel(state.config().logLevel().orElse(fromCli));
  }
}
