package dev.agentcompute.server.observe;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server's meters, served in Prometheus format at /metrics: CodeMode executions by outcome and
 * their latency, MCP sessions, the CodeMode worker pool, Incus calls, and the build's identity.
 * Other modules report through the server's wiring ({@code ServerRuntime}) (they do not depend on
 * the server).
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

  ServerMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public static ServerMetrics global() {
    return new ServerMetrics(Metrics.globalRegistry());
  }

  /** One finished {@code execute} call; {@code outcome} is {@code ok} or the error class. */
  public void execution(String outcome, Duration latency) {
    registry
        .getOrCreate(
            Counter.builder("agentcompute.executions")
                .description("CodeMode executions by outcome")
                .tags(List.of(Tag.create("outcome", outcome))))
        .increment();
    registry
        .getOrCreate(
            Timer.builder("agentcompute.execution.latency")
                .description("CodeMode execution latency")
                .baseUnit("seconds")
                .buckets(EXECUTION_BUCKETS)
                .percentiles(new double[0])
                .tags(List.of(Tag.create("outcome", outcome))))
        .record(latency);
  }

  /**
   * One Incus REST call: operation such as {@code GET /1.0/instances}, outcome ok or error class.
   */
  public void incusCall(String operation, String outcome, Duration latency) {
    List<Tag> tags = List.of(Tag.create("operation", operation), Tag.create("outcome", outcome));
    registry
        .getOrCreate(
            Counter.builder("agentcompute.incus.calls")
                .description("Incus REST calls by operation and outcome")
                .tags(tags))
        .increment();
    registry
        .getOrCreate(
            Timer.builder("agentcompute.incus.call.latency")
                .description("Incus REST call latency")
                .baseUnit("seconds")
                .buckets(INCUS_BUCKETS)
                .percentiles(new double[0])
                .tags(List.of(Tag.create("operation", operation))))
        .record(latency);
  }

  /**
   * One native call that reached the host: counted by capability and outcome ({@code ok} or the
   * failure class), its latency per capability.
   */
  public void nativeCall(String capability, String outcome, Duration latency) {
    registry
        .getOrCreate(
            Counter.builder("agentcompute.native.calls")
                .description("Native capability calls by capability and outcome")
                .tags(
                    List.of(Tag.create("capability", capability), Tag.create("outcome", outcome))))
        .increment();
    registry
        .getOrCreate(
            Timer.builder("agentcompute.native.call.latency")
                .description("Native capability call latency")
                .baseUnit("seconds")
                .buckets(INCUS_BUCKETS)
                .percentiles(new double[0])
                .tags(List.of(Tag.create("capability", capability))))
        .record(latency);
  }

  /** Gauges of the CodeMode worker pool: executions running now and the configured maximum. */
  public void workerPool(Supplier<? extends Number> busy, Supplier<? extends Number> capacity) {
    registry.getOrCreate(
        Gauge.builder("agentcompute.workers.busy", busy::get)
            .description("CodeMode worker processes running"));
    registry.getOrCreate(
        Gauge.builder("agentcompute.workers.capacity", capacity::get)
            .description("CodeMode maximum concurrent executions"));
  }

  /**
   * Gauges of worker processes started by the compute generation in force (pre-started ones
   * included) and of executions waiting for a slot: with worker reuse on, starts grow slower than
   * executions.
   */
  public void workerStarts(Supplier<? extends Number> started, Supplier<? extends Number> queued) {
    registry.getOrCreate(
        Gauge.builder("agentcompute.workers.started", started::get)
            .description("CodeMode worker processes started by the current compute generation"));
    registry.getOrCreate(
        Gauge.builder("agentcompute.executions.queued", queued::get)
            .description("CodeMode executions waiting for a worker slot"));
  }

  /** Gauge of open MCP sessions over HTTP. */
  public void sessions(Supplier<? extends Number> open) {
    registry.getOrCreate(
        Gauge.builder("agentcompute.mcp.sessions", open::get)
            .description("Open MCP sessions over HTTP"));
  }

  /**
   * Gauge {@code agentcompute_build_info}, always 1: its labels carry the running build's version,
   * git commit and build date, so a dashboard can tell two builds apart and see a rollout.
   */
  public void buildInfo(Version version) {
    registry.getOrCreate(
        Gauge.builder("agentcompute.build.info", () -> 1)
            .description("The running build: version, git commit and build date as labels")
            .tags(buildTags(version)));
  }

  static List<Tag> buildTags(Version version) {
    return List.of(
        Tag.create("version", version.version()),
        Tag.create("commit", version.commit()),
        Tag.create("date", version.date()));
  }

  /** Counter of configuration reload attempts by result (applied, pending, rejected). */
  public void reload(String result) {
    registry
        .getOrCreate(
            Counter.builder("agentcompute.config.reloads")
                .description("Configuration reload attempts by result")
                .tags(List.of(Tag.create("result", result))))
        .increment();
  }

  /** The build-info gauge's value for {@code version}, or empty if it was never registered. */
  Optional<Double> buildInfoValue(Version version) {
    return registry
        .gauge("agentcompute.build.info", buildTags(version))
        .map(g -> g.value().doubleValue());
  }

  double count(String name, String tagKey, String tagValue) {
    return registry
        .counter(name, List.of(Tag.create(tagKey, tagValue)))
        .map(c -> (double) c.count())
        .orElse(0.0);
  }
}
