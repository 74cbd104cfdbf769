package dev.agentcompute.server.http;

import dev.agentcompute.server.config.LiveConfig;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.observe.ReadinessCheck;
import dev.agentcompute.server.observe.Version;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import io.helidon.webserver.spi.ServerFeature;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The operational endpoints: {@code /health} (all checks), {@code /health/live} (the process and
 * the configuration in force, its digest, git commit, pending and refused changes) and {@code
 * /health/ready} (every registered {@link ReadinessCheck}), plus {@code /metrics}.
 */
public final class Operations {
  private final LiveConfig live;
  private final Version version;
  private final Instant started;
  private final List<ReadinessCheck> readiness = new CopyOnWriteArrayList<>();

  public Operations(LiveConfig live, Version version, Instant started) {
    this.live = live;
    this.version = version;
    this.started = started;
  }

  /** Adds a dependency that /health/ready must see up (Incus, OVN, the drain, ...). */
  public void addReadinessCheck(ReadinessCheck check) {
    readiness.add(check);
  }

  /** The health routes (ours, see {@link HealthRoutes}) and Helidon's metrics observer. */
  public ServerFeature feature() {
    HealthRoutes health =
        new HealthRoutes(
            List.of(
                new HealthRoutes.Check("server", true, this::server),
                new HealthRoutes.Check("config", true, this::config),
                new HealthRoutes.Check("dependencies", false, this::dependencies)));
    ObserveFeature observe =
        ObserveFeature.builder()
            .endpoint("/")
            .observersDiscoverServices(false)
            .addObserver(MetricsObserver.create())
            .build();
    return new ServerFeature() {
      @Override
      public void setup(ServerFeatureContext context) {
        health.register(context.socket(WebServer.DEFAULT_SOCKET_NAME).httpRouting());
        observe.setup(context);
      }

      @Override
      public String name() {
        return "operations";
      }

      @Override
      public String type() {
        return "operations";
      }
    };
  }

  private HealthRoutes.Result server() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("version", version.line());
    data.put("started", started.toString());
    return new HealthRoutes.Result(true, data);
  }

  private HealthRoutes.Result config() {
    LiveConfig.State s = live.current();
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("file", s.source().file().toString());
    data.put("digest", "sha256:" + s.source().digest());
    data.put("commit", s.source().gitCommit().orElse("none"));
    data.put("catalogue_digest", "sha256:" + s.catalogueDigest());
    data.put(
        "authorization",
        s.config().authorization().map(ServerConfig.Authorization::digest).orElse("allow-all"));
    data.put("applied_at", s.appliedAt().toString());
    data.put(
        "pending_restart", s.pending().stream().map(p -> p.key() + ": " + p.reason()).toList());
    s.rejected()
        .ifPresent(
            r -> {
              data.put("rejected_digest", "sha256:" + r.digest());
              data.put("rejected_at", r.at().toString());
              data.put("rejected_problems", r.problems());
            });
    return new HealthRoutes.Result(true, data);
  }

  /** One readiness entry aggregating the pluggable checks, each reported by name. */
  private HealthRoutes.Result dependencies() {
    boolean allUp = true;
    Map<String, Object> data = new LinkedHashMap<>();
    for (ReadinessCheck check : readiness) {
      ReadinessCheck.Result result;
      try {
        result = check.check();
      } catch (Exception e) {
        result = ReadinessCheck.Result.down(String.valueOf(e.getMessage()));
      }
      allUp &= result.up();
      data.put(
          check.name(), Map.of("status", result.up() ? "UP" : "DOWN", "details", result.details()));
    }
    return new HealthRoutes.Result(allUp, data);
  }
}
