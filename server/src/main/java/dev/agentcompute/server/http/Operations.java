package dev.agentcompute.server.http;

import dev.agentcompute.server.config.LiveConfig;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.observe.HealthMonitor;
import dev.agentcompute.server.observe.JsonText;
import dev.agentcompute.server.observe.ReadinessCheck;
import dev.agentcompute.server.observe.ServerMetrics;
import dev.agentcompute.server.observe.Version;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.spi.ServerFeature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operational endpoints: {@code /health} (all checks), {@code /health/live} (the process and
 * the configuration in force, its digest, git commit, pending and refused changes), {@code
 * /health/ready} (every dependency, from {@link HealthMonitor}'s last background results, so it
 * answers at once even when a dependency hangs) and {@code /metrics} (Prometheus text). The health
 * documents are written by {@link JsonText}: {@code {"status":…,"checks":[{"name":…,"status":…,
 * "data":{…}}]}}.
 */
public final class Operations implements ServerFeature {
  /** How long /health waits for a dependency's first result right after startup. */
  static final Duration FIRST_RESULT_WAIT = Duration.ofMillis(700);

  private final LiveConfig live;
  private final Version version;
  private final Instant started;
  private final ServerMetrics metrics;
  private final HealthMonitor monitor;
  private final List<ReadinessCheck> instant = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Operations(LiveConfig live, Version version, Instant started) {
    this(live, version, started, null, new HealthMonitor(null));
  }

  public Operations(
      LiveConfig live,
      Version version,
      Instant started,
      ServerMetrics metrics,
      HealthMonitor monitor) {
    this.live = live;
    this.version = version;
    this.started = started;
    this.metrics = metrics;
    this.monitor = monitor;
  }

  /**
   * Adds a dependency that /health/ready must see up (Incus, OVN, ...), probed in the background.
   */
  public void addReadinessCheck(ReadinessCheck check) {
    monitor.add(check);
  }

  /**
   * Adds a check of the server's own state (the drain) that answers at once from memory: it is
   * asked on every request rather than through the background monitor, whose results may be seconds
   * old, so a load balancer sees a draining server as not ready immediately.
   */
  public void addInstantCheck(ReadinessCheck check) {
    instant.add(check);
  }

  /** This feature, for {@code WebServerConfig.Builder.addFeature}. */
  public Operations feature() {
    return this;
  }

  @Override
  public void setup(ServerFeatureContext context) {
    context
        .socket(WebServer.DEFAULT_SOCKET_NAME)
        .httpRouting()
        .get("/health", (req, res) -> health(res, true, true))
        .get("/health/live", (req, res) -> health(res, true, false))
        .get("/health/ready", (req, res) -> health(res, false, true))
        .get("/metrics", (req, res) -> metrics(res));
  }

  @Override
  public String name() {
    return "operations";
  }

  @Override
  public String type() {
    return "operations";
  }

  private void metrics(ServerResponse res) {
    res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send(metrics == null ? "" : metrics.scrape());
  }

  private void health(ServerResponse res, boolean liveness, boolean readiness) {
    List<Map<String, Object>> checks = new ArrayList<>();
    boolean up = true;
    if (liveness) {
      checks.add(check("server", true, serverData()));
      checks.add(check("config", true, configData()));
    }
    if (readiness) {
      Map<String, Object> deps = new LinkedHashMap<>();
      boolean allUsable = true;
      for (Map.Entry<String, HealthMonitor.State> e :
          monitor.states(FIRST_RESULT_WAIT).entrySet()) {
        HealthMonitor.State s = e.getValue();
        allUsable &= s.usable();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("status", s.status());
        if (s.reason() != null) {
          d.put("reason", s.reason());
        }
        d.put("checked_at", s.checkedAt());
        d.put("last_ok", s.lastOk());
        d.put("took_ms", s.tookMillis());
        d.put("details", s.details());
        deps.put(e.getKey(), d);
      }
      for (ReadinessCheck check : instant) {
        ReadinessCheck.Result r;
        try {
          r = check.check();
        } catch (Exception e) {
          r = ReadinessCheck.Result.down(String.valueOf(e.getMessage()));
        }
        allUsable &= r.up();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("status", r.up() ? "UP" : "DOWN");
        d.put("details", r.details());
        deps.put(check.name(), d);
      }
      checks.add(check("dependencies", allUsable, deps));
      up = allUsable;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", up ? "UP" : "DOWN");
    body.put("checks", checks);
    res.status(up ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send(JsonText.write(body));
  }

  private static Map<String, Object> check(String name, boolean up, Map<String, Object> data) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("name", name);
    c.put("status", up ? "UP" : "DOWN");
    c.put("data", data);
    return c;
  }

  private Map<String, Object> serverData() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("version", version.line());
    d.put("started", started.toString());
    return d;
  }

  private Map<String, Object> configData() {
    LiveConfig.State s = live.current();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("file", s.source().file().toString());
    d.put("digest", "sha256:" + s.source().digest());
    d.put("commit", s.source().gitCommit().orElse("none"));
    d.put("catalogue_digest", "sha256:" + s.catalogueDigest());
    d.put(
        "authorization",
        s.config().authorization().map(ServerConfig.Authorization::digest).orElse("allow-all"));
    d.put("applied_at", s.appliedAt().toString());
    d.put("pending_restart", s.pending().stream().map(p -> p.key() + ": " + p.reason()).toList());
    s.rejected()
        .ifPresent(
            r -> {
              d.put("rejected_digest", "sha256:" + r.digest());
              d.put("rejected_at", r.at().toString());
              d.put("rejected_problems", r.problems());
            });
    return d;
  }
}
