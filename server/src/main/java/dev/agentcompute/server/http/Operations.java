package dev.agentcompute.server.http;

import dev.agentcompute.server.config.LiveConfig;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.observe.ReadinessCheck;
import dev.agentcompute.server.observe.Version;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

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

  /** Adds a dependency that /health/ready must see up (Incus, OVN, ...). */
  public void addReadinessCheck(ReadinessCheck check) {
    readiness.add(check);
  }

  public ObserveFeature feature() {
    HealthObserver health =
        HealthObserver.builder()
            .details(true)
            .useSystemServices(false)
            .addCheck(serverCheck())
            .addCheck(configCheck())
            .addCheck(readinessChecks())
            .build();
    return ObserveFeature.builder()
        .endpoint("/")
        .observersDiscoverServices(false)
        .addObserver(health)
        .addObserver(MetricsObserver.create())
        .build();
  }

  /** A health check of {@code type} named {@code name} that answers with {@code call}. */
  private static HealthCheck check(
      HealthCheckType type, String name, Supplier<HealthCheckResponse> call) {
    return new HealthCheck() {
      @Override
      public HealthCheckType type() {
        return type;
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public HealthCheckResponse call() {
        return call.get();
      }
    };
  }

  private HealthCheck serverCheck() {
    return check(
        HealthCheckType.LIVENESS,
        "server",
        () ->
            HealthCheckResponse.builder()
                .status(true)
                .detail("version", version.line())
                .detail("started", started.toString())
                .build());
  }

  private HealthCheck configCheck() {
    return check(
        HealthCheckType.LIVENESS,
        "config",
        () -> {
          LiveConfig.State s = live.current();
          HealthCheckResponse.Builder b =
              HealthCheckResponse.builder()
                  .status(true)
                  .detail("file", s.source().file().toString())
                  .detail("digest", "sha256:" + s.source().digest())
                  .detail("commit", s.source().gitCommit().orElse("none"))
                  .detail("catalogue_digest", "sha256:" + s.catalogueDigest())
                  .detail(
                      "authorization",
                      s.config()
                          .authorization()
                          .map(ServerConfig.Authorization::digest)
                          .orElse("allow-all"))
                  .detail("applied_at", s.appliedAt().toString())
                  .detail(
                      "pending_restart",
                      s.pending().stream().map(p -> p.key() + ": " + p.reason()).toList());
          s.rejected()
              .ifPresent(
                  r ->
                      b.detail("rejected_digest", "sha256:" + r.digest())
                          .detail("rejected_at", r.at().toString())
                          .detail("rejected_problems", r.problems()));
          return b.build();
        });
  }

  /** One readiness entry aggregating the pluggable checks, each reported by name. */
  private HealthCheck readinessChecks() {
    return check(
        HealthCheckType.READINESS,
        "dependencies",
        () -> {
          boolean allUp = true;
          HealthCheckResponse.Builder b = HealthCheckResponse.builder();
          for (ReadinessCheck check : readiness) {
            ReadinessCheck.Result result;
            try {
              result = check.check();
            } catch (Exception e) {
              result = ReadinessCheck.Result.down(String.valueOf(e.getMessage()));
            }
            allUp &= result.up();
            b.detail(
                check.name(),
                Map.of("status", result.up() ? "UP" : "DOWN", "details", result.details()));
          }
          return b.status(allUp).build();
        });
  }
}
