package dev.agentcompute.server;

import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.capabilities.service.QuotaRefusals;
import dev.agentcompute.codemode.mcp.RoutingStdioTransportProvider;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.server.admin.AdminAccess;
import dev.agentcompute.server.admin.AdminFeature;
import dev.agentcompute.server.admin.AdminService;
import dev.agentcompute.server.admin.RunningExecutes;
import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.auth.BearerTokensFile;
import dev.agentcompute.server.auth.TokenFileWatcher;
import dev.agentcompute.server.cli.CliArgs;
import dev.agentcompute.server.cli.EofSignallingInput;
import dev.agentcompute.server.cli.ShutdownSignal;
import dev.agentcompute.server.compute.Backends;
import dev.agentcompute.server.compute.ComputeGenerations;
import dev.agentcompute.server.compute.IncusConnection;
import dev.agentcompute.server.compute.InventoryGauges;
import dev.agentcompute.server.compute.LumeConnection;
import dev.agentcompute.server.compute.OvnConnection;
import dev.agentcompute.server.compute.ToolWiring;
import dev.agentcompute.server.config.CatalogueCheck;
import dev.agentcompute.server.config.CodemodeSettings;
import dev.agentcompute.server.config.ConfigReloader;
import dev.agentcompute.server.config.LiveConfig;
import dev.agentcompute.server.config.LoadedConfig;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.http.FileRoutes;
import dev.agentcompute.server.http.FrontDoor;
import dev.agentcompute.server.http.HttpFrontEnd;
import dev.agentcompute.server.http.ListenAddress;
import dev.agentcompute.server.http.Operations;
import dev.agentcompute.server.http.ScreenshotRoutes;
import dev.agentcompute.server.http.StreamableHttpTransport;
import dev.agentcompute.server.mcp.McpServerAssembly;
import dev.agentcompute.server.observe.AdminAudit;
import dev.agentcompute.server.observe.AuditEntry;
import dev.agentcompute.server.observe.AuditFile;
import dev.agentcompute.server.observe.AuditLog;
import dev.agentcompute.server.observe.AuditRing;
import dev.agentcompute.server.observe.HealthMonitor;
import dev.agentcompute.server.observe.IncusCallMetrics;
import dev.agentcompute.server.observe.Log;
import dev.agentcompute.server.observe.LogLevel;
import dev.agentcompute.server.observe.Logging;
import dev.agentcompute.server.observe.ReadinessCheck;
import dev.agentcompute.server.observe.ServerMetrics;
import dev.agentcompute.server.observe.Version;
import io.helidon.webserver.WebServer;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
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
public final class ServerRuntime {
  private static final Log LOG = Log.of(ServerRuntime.class);
  static final Duration RELOAD_POLL = Duration.ofSeconds(2);
  static final String STDIO_SUBJECT = "local";

  private ServerRuntime() {}

  /**
   * The store in {@code screenshots.dir}: its files stay off the heap, in a directory of this
   * process's own, so every server on one configuration (dev/run's HTTP server, the stdio servers
   * MCP clients start beside it) shares the configured directory without clearing another's images.
   */
  static ScreenshotStore screenshotStore(ServerConfig.Screenshots config) {
    try {
      return ScreenshotStore.inDirectory(
          config.dir(), config.baseUrl().orElse(null), Clock.systemUTC(), new SecureRandom());
    } catch (IllegalStateException e) {
      throw new StartupException(e.getMessage(), e);
    } catch (java.io.IOException e) {
      throw new StartupException(
          "screenshots.dir " + config.dir() + " cannot be used: " + e.getMessage(), e);
    }
  }

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
      ListenAddress.checkExposure(
          cli.addr(), address, cli.authTokensFile().isPresent(), cli.insecure());
    }
    Optional<BearerTokens> tokens = cli.authTokensFile().map(BearerTokensFile::load);

    // The same checks as `validate`, so what it accepts starts (short of Incus answering).
    Preflight preflight = new Preflight(env);
    Preflight.Checked checked = preflight.load(configFile, CatalogueCheck.IMAGE_CATALOG);
    LoadedConfig loaded = checked.loaded();
    String catalogueDigest = checked.catalogueDigest();
    LiveConfig live = new LiveConfig(loaded, catalogueDigest, Instant.now());
    applyLogLevel(live.current(), cli.logLevel());
    live.subscribe(state -> applyLogLevel(state, cli.logLevel()));
    LOG.info(
        "configuration loaded",
        "file",
        loaded.file(),
        "digest",
        loaded.shortDigest(),
        "commit",
        loaded.gitCommit().orElse("none"));
    if (loaded.config().network().protectedRanges().isEmpty()) {
      // No default: the original's ranges were its own site's, and would protect nothing here.
      LOG.warn(
          "network.protected_ranges is empty: sandbox networks may reach every address this host"
              + " routes to; list this site's management and out-of-band ranges",
          "docs",
          "docs/operations.md#onboarding-a-cluster");
    }

    ServerMetrics metrics = ServerMetrics.create();
    Version version = Version.current();
    metrics.buildInfo(version);
    QuotaRefusals.listen(metrics::quotaRefusal);
    ShutdownSignal signal = ShutdownSignal.install();
    TransferGrants transfers =
        new TransferGrants(
            loaded.config().files().baseUrl().orElse(null),
            loaded.config().files().limits(),
            Clock.systemUTC(),
            new SecureRandom());
    Optional<AuditFile> auditFile = openAuditFile(loaded.config().audit());
    try (AuditLog audit = new AuditLog(metrics, auditFile);
        HealthMonitor health = new HealthMonitor(metrics);
        ScreenshotStore screenshots = screenshotStore(loaded.config().screenshots());
        IncusClient incus =
            IncusConnection.open(loaded.config().incus(), env, new IncusCallMetrics(metrics));
        OvnConnection ovn = OvnConnection.open(loaded.config().incus());
        LumeConnection.Holder mac = LumeConnection.openIfConfigured(loaded.config().lume());
        ComputeGenerations compute =
            ComputeGenerations.start(
                loaded.config(),
                catalogueDigest,
                new Backends(
                    incus,
                    ovn.northbound(),
                    CodemodeSettings.tokens(loaded.config().codemode()),
                    audit,
                    Optional.of(screenshots),
                    mac.connection(),
                    transfers));
        ConfigReloader reloader =
            new ConfigReloader(
                live,
                CatalogueCheck.IMAGE_CATALOG,
                preflight,
                List.of(compute),
                metrics,
                RELOAD_POLL,
                Clock.systemUTC());
        InventoryGauges inventory = InventoryGauges.start(compute, metrics)) {
      // The admin API and the console read the recent records of the whole trail.
      audit.subscribe(r -> AuditRing.recent().add(AuditEntry.of(r)));
      Operations operations = new Operations(live, version, Instant.now(), metrics, health);
      if (http) {
        // Probed in the background only where /health serves them.
        operations.addReadinessCheck(IncusConnection.readiness(incus));
        ovn.readiness().ifPresent(operations::addReadinessCheck);
        mac.connection().map(LumeConnection::readiness).ifPresent(operations::addReadinessCheck);
        operations.addReadinessCheck(compute.readiness());
      }
      RunningExecutes running = new RunningExecutes(Clock.systemUTC());
      McpServerAssembly assembly = ToolWiring.assembly(compute, metrics, audit, running);
      reloader.start();
      return http
          ? serveHttp(
              address,
              tokens,
              assembly,
              operations,
              metrics,
              audit,
              signal,
              screenshots,
              loaded.config().http(),
              new Admin(
                  running,
                  compute::withSandboxes,
                  cli.authTokensFile()
                      .map(f -> new TokenFileWatcher(f, tokens.orElseThrow(), RELOAD_POLL)),
                  () -> live.current().config().admin()),
              new FileRoutes(transfers, compute::files, tokens))
          : serveStdio(
              assembly,
              stdin,
              stdout,
              signal,
              screenshots,
              ListenAddress.parse(loaded.config().screenshots().listen()));
    }
  }

  private static int serveHttp(
      ListenAddress address,
      Optional<BearerTokens> tokens,
      McpServerAssembly assembly,
      Operations operations,
      ServerMetrics metrics,
      AuditLog audit,
      ShutdownSignal signal,
      ScreenshotStore screenshots,
      ServerConfig.Http caps,
      Admin admin,
      FileRoutes files)
      throws InterruptedException {
    Clock clock = Clock.systemUTC();
    AdminService adminService =
        new AdminService(
            admin.sandboxes(),
            admin.running(),
            admin.tokenFile(),
            AuditRing.recent(),
            new AdminAudit(audit),
            Optional.of(screenshots),
            clock);
    AdminAccess adminAccess = new AdminAccess(tokens, admin.operators());
    HttpFrontEnd front =
        HttpFrontEnd.start(
            address,
            tokens,
            assembly,
            StreamableHttpTransport.Settings.defaults()
                .with(
                    new FrontDoor(
                        caps.maxSessions(),
                        caps.maxSessionsPerIdentity(),
                        caps.maxConnections(),
                        caps.maxConcurrentRequests()),
                    caps.headerTimeout()),
            b ->
                b.addFeature(operations.feature())
                    .addFeature(new ScreenshotRoutes(screenshots))
                    .addFeature(new AdminFeature(adminService, adminAccess))
                    // Uploads are bodies of up to files.max_upload_bytes; /mcp keeps its own cap.
                    .addFeature(files)
                    .maxPayloadSize(files.maxPayloadBytes(b.maxPayloadSize())),
            audit::authenticationFailed);
    metrics.sessions(front::sessionCount);
    operations.addInstantCheck(drainCheck(front));
    // A token removed from the file stops working at once: its sessions and executes end too.
    admin
        .tokenFile()
        .ifPresent(
            w ->
                w.onRevoked(
                    identities -> {
                      int sessions = front.closeSessionsOf(identities);
                      int executes = admin.running().cancelSubjects(identities);
                      LOG.info(
                          "revoked identities disconnected",
                          "identities",
                          String.join(",", identities),
                          "sessions",
                          sessions,
                          "executes",
                          executes);
                    }));
    admin.tokenFile().ifPresent(TokenFileWatcher::start);
    String shownHost = address.host().contains(":") ? "[" + address.host() + "]" : address.host();
    // Without screenshots.base_url, URLs point at this listener, which serves the store.
    screenshots.servedAt(listenerUrl(address, front.port()));
    files.servedAt(listenerUrl(address, front.port()));
    LOG.info(
        "listening",
        "addr",
        shownHost + ":" + front.port(),
        "auth",
        tokens.isPresent() ? "bearer" : "none",
        "identities",
        tokens.map(t -> String.join(",", t.identities())).orElse("development"));
    String why = signal.await();
    Duration drain = caps.drainTimeout();
    admin.tokenFile().ifPresent(TokenFileWatcher::close);
    // Logged once new requests are refused: a reader of the log line may rely on it (SigtermDrainIT
    // sent a request right after it and, logged before the drain began, got 200 once in a
    // rehearsal).
    front.drainAndStop(
        drain,
        () -> LOG.info("shutting down", "drain_timeout", drain.toSeconds() + "s", "signal", why));
    LOG.info("shut down cleanly");
    return Commands.OK;
  }

  /** What the admin API needs from the wiring above the listener. */
  private record Admin(
      RunningExecutes running,
      AdminService.Sandboxes sandboxes,
      Optional<TokenFileWatcher> tokenFile,
      java.util.function.Supplier<ServerConfig.Admin> operators) {}

  private static int serveStdio(
      McpServerAssembly assembly,
      InputStream stdin,
      PrintStream protocolOut,
      ShutdownSignal signal,
      ScreenshotStore screenshots,
      ListenAddress screenshotsAddress)
      throws InterruptedException {
    // stdout carries JSON-RPC, so screenshot URLs are served by a listener of their own.
    WebServer shots = ScreenshotRoutes.listen(screenshotsAddress, screenshots);
    // Without screenshots.base_url, URLs point at this listener (its real port, when 0 was asked).
    screenshots.servedAt(listenerUrl(screenshotsAddress, shots.port()));
    LOG.info("serving screenshots", "addr", screenshotsAddress.host() + ":" + shots.port());
    InputStream input = new EofSignallingInput(stdin, () -> signal.trigger("stdin closed"));
    // With resources, the resources methods are answered per caller before the SDK sees them.
    McpServerTransportProvider transport =
        assembly
            .resources(Optional.of(STDIO_SUBJECT))
            .<McpServerTransportProvider>map(
                resources ->
                    new RoutingStdioTransportProvider(
                        McpJsonDefaults.getMapper(), input, protocolOut, resources))
            .orElseGet(
                () ->
                    new StdioServerTransportProvider(
                        McpJsonDefaults.getMapper(), input, protocolOut));
    McpSyncServer mcp = assembly.build(McpServer.sync(transport), Optional.of(STDIO_SUBJECT));
    LOG.info("serving over stdio");
    String why = signal.await();
    LOG.info("shutting down", "reason", why);
    mcp.closeGracefully();
    shots.stop();
    LOG.info("shut down cleanly");
    return Commands.OK;
  }

  /**
   * {@code http://host:port} of a listener; all interfaces (an empty host, {@code 0.0.0.0}, {@code
   * ::}) are reached at the loopback address from this machine.
   */
  /** /health/ready is down once the drain began, so load balancers send new sessions elsewhere. */
  private static ReadinessCheck drainCheck(HttpFrontEnd front) {
    return new ReadinessCheck() {
      @Override
      public String name() {
        return "shutdown";
      }

      @Override
      public Result check() {
        return front.draining()
            ? Result.down("draining for shutdown: new requests are refused")
            : Result.up(Map.of("draining", false));
      }
    };
  }

  static URI listenerUrl(ListenAddress address, int port) {
    String host = address.host();
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    }
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port);
  }

  /** The audit trail's file when {@code audit.file} is set, opened for appending. */
  static Optional<AuditFile> openAuditFile(ServerConfig.Audit config) {
    if (config.file().isEmpty()) {
      return Optional.empty();
    }
    Path file = config.file().get();
    try {
      return Optional.of(AuditFile.open(file, config.maxFileBytes(), config.maxFiles()));
    } catch (java.io.IOException e) {
      throw new StartupException(
          "audit.file " + file + " cannot be opened for appending: " + e.getMessage(), e);
    }
  }

  private static void applyLogLevel(LiveConfig.State state, LogLevel fromCli) {
    Logging.setLevel(state.config().logLevel().orElse(fromCli));
  }
}
