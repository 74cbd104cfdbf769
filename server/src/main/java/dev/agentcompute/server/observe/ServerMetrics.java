package dev.agentcompute.server.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The server's meters, served in Prometheus text format at /metrics (docs/operations.md#metrics).
 * Micrometer rather than Helidon's metrics API: its binders give the JVM, process and system meters
 * under the names Prometheus users know ({@code jvm_memory_used_bytes}, {@code process_cpu_usage},
 * {@code process_files_open_files}), its Prometheus registry writes counters as counters ({@code
 * _total}) with no constant {@code scope} label, and it needs no Helidon service discovery. Other
 * modules report through the server's wiring ({@code ServerRuntime}); they do not depend on the
 * server.
 */
public final class ServerMetrics {
  /**
   * Histogram buckets (Prometheus {@code le}) of whole executions: from a warm trivial program
   * (milliseconds) to the 15-minute limit.
   */
  static final Duration[] EXECUTION_BUCKETS =
      seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900);

  /** Of one Incus request, or one native call: a millisecond to a 10-minute creation. */
  static final Duration[] INCUS_BUCKETS =
      seconds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600);

  private static Duration[] seconds(double... values) {
    Duration[] out = new Duration[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Duration.ofNanos((long) (values[i] * 1e9));
    }
    return out;
  }

  private final MeterRegistry registry;
  private final PrometheusMeterRegistry prometheus;

  /** What function counters read: Micrometer holds it weakly, so it is held here. */
  private final List<Object> held = new java.util.concurrent.CopyOnWriteArrayList<>();

  private final MultiGauge sandboxes;
  private final MultiGauge instances;

  ServerMetrics(MeterRegistry registry, PrometheusMeterRegistry prometheus) {
    this.registry = registry;
    this.prometheus = prometheus;
    this.sandboxes =
        MultiGauge.builder("agentcompute.sandboxes")
            .description("Live sandboxes by platform (counted in the background)")
            .register(registry);
    this.instances =
        MultiGauge.builder("agentcompute.instances")
            .description("Live instances by platform (counted in the background)")
            .register(registry);
  }

  /** Meters kept in memory only (no binders, nothing to scrape), for tests. */
  public static ServerMetrics inMemory() {
    return new ServerMetrics(new SimpleMeterRegistry(), null);
  }

  /** The process's meters, with the JVM, process and system binders bound. */
  public static ServerMetrics create() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    // Closed with the process: the GC listener lives as long as the registry.
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmInfoMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    ServerMetrics metrics = new ServerMetrics(registry, registry);
    metrics.startAtZero();
    return metrics;
  }

  /** The 401 reasons {@link #authenticationFailure} counts. */
  static final List<String> AUTHENTICATION_FAILURE_REASONS =
      List.of("missing", "malformed", "unknown");

  /** The configuration keys a quota refusal names (the capabilities' quota checks). */
  static final List<String> QUOTA_KEYS =
      List.of(
          "instance.max_cpus",
          "instance.max_memory_mb",
          "instance.max_disk_gb",
          "instance.background_processes",
          "sandbox.limits.instances",
          "sandbox.limits.cpus",
          "sandbox.limits.memory_mb",
          "sandbox.limits.networks",
          "sandbox.limits.processes",
          "sandbox.max_per_identity",
          "sandbox.identity_limits.instances",
          "sandbox.identity_limits.networks",
          "sandbox.identity_limits.forwards",
          "sandbox.max_lifetime_minutes");

  /**
   * Counters an alert rule watches exist from the start at 0, so {@code rate()} and {@code
   * increase()} see their first event and /metrics lists every family before anything happened.
   */
  private void startAtZero() {
    AUTHENTICATION_FAILURE_REASONS.forEach(r -> authenticationFailures(r));
    QUOTA_KEYS.forEach(k -> quotaRefusals(k));
    for (String outcome : List.of("ok", "failed")) {
      reaperDeletions("incus", outcome);
    }
    executions(Outcomes.OK);
    for (String result : List.of("applied", "pending", "rejected")) {
      reloads(result);
    }
  }

  /** The Prometheus text exposition of every meter (what /metrics answers). */
  public String scrape() {
    return prometheus == null ? "" : prometheus.scrape();
  }

  /** One finished {@code execute} call; {@code outcome} is from {@link Outcomes}. */
  public void execution(String outcome, Duration latency) {
    Timer timer = executions(outcome);
    Counter.builder("agentcompute.executions")
        .description("CodeMode executions by outcome")
        .tag("outcome", outcome)
        .register(registry)
        .increment();
    timer.record(latency);
  }

  private Timer executions(String outcome) {
    Counter.builder("agentcompute.executions")
        .description("CodeMode executions by outcome")
        .tag("outcome", outcome)
        .register(registry);
    return Timer.builder("agentcompute.execution.latency")
        .description("CodeMode execution latency")
        .serviceLevelObjectives(EXECUTION_BUCKETS)
        .tag("outcome", outcome)
        .register(registry);
  }

  /**
   * One Incus REST call: operation such as {@code GET /1.0/instances}, outcome ok or error class.
   */
  public void incusCall(String operation, String outcome, Duration latency) {
    Counter.builder("agentcompute.incus.calls")
        .description("Incus REST calls by operation and outcome")
        .tags("operation", operation, "outcome", outcome)
        .register(registry)
        .increment();
    Timer.builder("agentcompute.incus.call.latency")
        .description("Incus REST call latency")
        .serviceLevelObjectives(INCUS_BUCKETS)
        .tag("operation", operation)
        .register(registry)
        .record(latency);
  }

  /**
   * One native call that reached the host: counted by capability and outcome ({@code ok} or the
   * failure class of {@link Outcomes}), its latency per capability.
   */
  public void nativeCall(String capability, String outcome, Duration latency) {
    Counter.builder("agentcompute.native.calls")
        .description("Native capability calls by capability and outcome")
        .tags("capability", capability, "outcome", outcome)
        .register(registry)
        .increment();
    Timer.builder("agentcompute.native.call.latency")
        .description("Native capability call latency")
        .serviceLevelObjectives(INCUS_BUCKETS)
        .tag("capability", capability)
        .register(registry)
        .record(latency);
  }

  /** Gauges of the CodeMode worker pool: executions running now and the configured maximum. */
  public void workerPool(Supplier<? extends Number> busy, Supplier<? extends Number> capacity) {
    gauge("agentcompute.workers.busy", "CodeMode worker processes running", busy);
    gauge("agentcompute.workers.capacity", "CodeMode maximum concurrent executions", capacity);
  }

  /**
   * Worker processes started (a counter: it only grows, summed over compute generations by the
   * supplier) and executions waiting for a slot (a gauge).
   */
  public void workerStarts(Supplier<? extends Number> started, Supplier<? extends Number> queued) {
    held.add(started);
    FunctionCounter.builder(
            "agentcompute.workers.started",
            started,
            (ToDoubleFunction<Supplier<? extends Number>>) s -> s.get().doubleValue())
        .description("CodeMode worker processes started")
        .register(registry);
    gauge(
        "agentcompute.executions.queued", "CodeMode executions waiting for a worker slot", queued);
  }

  /** Gauge of open MCP sessions over HTTP. */
  public void sessions(Supplier<? extends Number> open) {
    gauge("agentcompute.mcp.sessions", "Open MCP sessions over HTTP", open);
  }

  /**
   * Gauge {@code agentcompute_build_info}, always 1: its labels carry the running build's version,
   * git commit and build date, so a dashboard can tell two builds apart and see a rollout.
   */
  public void buildInfo(Version version) {
    Gauge.builder("agentcompute.build.info", () -> 1)
        .description("The running build: version, git commit and build date as labels")
        .strongReference(true)
        .tags(buildTags(version))
        .register(registry);
  }

  static Tags buildTags(Version version) {
    return Tags.of(
        "version", version.version(), "commit", version.commit(), "date", version.date());
  }

  /** Counter of configuration reload attempts by result (applied, pending, rejected). */
  public void reload(String result) {
    reloads(result).increment();
  }

  private Counter reloads(String result) {
    return Counter.builder("agentcompute.config.reloads")
        .description("Configuration reload attempts by result")
        .tag("result", result)
        .register(registry);
  }

  /**
   * One request refused with 401, by reason ({@code missing}, {@code malformed}, {@code unknown}).
   */
  public void authenticationFailure(String reason) {
    authenticationFailures(reason).increment();
  }

  private Counter authenticationFailures(String reason) {
    return Counter.builder("agentcompute.authentication.failures")
        .description("Requests refused with 401 by reason")
        .tag("reason", reason)
        .register(registry);
  }

  /** One expired sandbox the reaper deleted ({@code ok}) or failed to delete ({@code failed}). */
  public void reaperDeletion(String platform, String outcome) {
    reaperDeletions(platform == null ? "" : platform, outcome).increment();
  }

  private Counter reaperDeletions(String platform, String outcome) {
    return Counter.builder("agentcompute.reaper.deletions")
        .description("Expired sandboxes the reaper deleted, by platform and outcome")
        .tags("platform", platform, "outcome", outcome)
        .register(registry);
  }

  /** One request refused by a quota; {@code limit} is its configuration key. */
  public void quotaRefusal(String limit) {
    quotaRefusals(limit).increment();
  }

  private Counter quotaRefusals(String limit) {
    return Counter.builder("agentcompute.quota.refusals")
        .description("Requests refused by a quota, by the configuration key of the limit")
        .tag("limit", limit)
        .register(registry);
  }

  /** Sets the sandbox and instance gauges to {@code counts} (platform: {sandboxes, instances}). */
  public synchronized void inventoryCounted(Map<String, long[]> counts) {
    List<MultiGauge.Row<?>> sandboxRows = rows(counts, 0);
    List<MultiGauge.Row<?>> instanceRows = rows(counts, 1);
    sandboxes.register(sandboxRows, true);
    instances.register(instanceRows, true);
    // The rows' values stay reachable until the next count (gauges hold their state weakly).
    heldRows = List.of(sandboxRows, instanceRows);
  }

  private List<Object> heldRows = List.of();

  private static List<MultiGauge.Row<?>> rows(Map<String, long[]> counts, int column) {
    return counts.entrySet().stream()
        .<MultiGauge.Row<?>>map(
            e -> MultiGauge.Row.of(Tags.of("platform", e.getKey()), e.getValue()[column]))
        .toList();
  }

  /** Gauge {@code agentcompute_dependency_up}: 1 while {@code dependency} answers, 0 when down. */
  public void dependencyUp(String dependency, Supplier<? extends Number> up) {
    Gauge.builder("agentcompute.dependency.up", up, s -> s.get().doubleValue())
        .description("Whether a dependency answered its last health check (1) or not (0)")
        // Micrometer holds a gauge's state weakly; these suppliers live only here.
        .strongReference(true)
        .tag("dependency", dependency)
        .register(registry);
  }

  private void gauge(String name, String description, Supplier<? extends Number> value) {
    Gauge.builder(name, value, s -> s.get().doubleValue())
        .description(description)
        .strongReference(true)
        .register(registry);
  }

  /** The build-info gauge's value for {@code version}, or empty if it was never registered. */
  java.util.Optional<Double> buildInfoValue(Version version) {
    return java.util.Optional.ofNullable(
            registry.find("agentcompute.build.info").tags(buildTags(version)).gauge())
        .map(Gauge::value);
  }

  double count(String name, String... tags) {
    Counter c = registry.find(name).tags(tags).counter();
    return c == null ? 0.0 : c.count();
  }

  List<String> meterNames() {
    return registry.getMeters().stream().map(m -> m.getId().getName()).distinct().toList();
  }
}
