package dev.agentcompute.server;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The server's meters, served in Prometheus format at /metrics: CodeMode executions by outcome
 * and their latency, MCP sessions, the CodeMode worker pool, and Incus calls. Other modules
 * report through the wiring in {@link Main} (they do not depend on the server).
 */
public final class ServerMetrics {
  private final MeterRegistry registry;

  ServerMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  static ServerMetrics global() {
    return new ServerMetrics(Metrics.globalRegistry());
  }

  /** One finished {@code execute} call; {@code outcome} is {@code ok} or the error class. */
  public void execution(String outcome, Duration latency) {
    registry.getOrCreate(Counter.builder("agentcompute.executions")
        .description("CodeMode executions by outcome")
        .tags(List.of(Tag.create("outcome", outcome)))).increment();
    registry.getOrCreate(Timer.builder("agentcompute.execution.latency")
        .description("CodeMode execution latency")
        .baseUnit("seconds")
        .tags(List.of(Tag.create("outcome", outcome)))).record(latency);
  }

  /** One Incus REST call: operation such as {@code GET /1.0/instances}, outcome ok or error class. */
  public void incusCall(String operation, String outcome, Duration latency) {
    List<Tag> tags = List.of(Tag.create("operation", operation), Tag.create("outcome", outcome));
    registry.getOrCreate(Counter.builder("agentcompute.incus.calls")
        .description("Incus REST calls by operation and outcome").tags(tags)).increment();
    registry.getOrCreate(Timer.builder("agentcompute.incus.call.latency")
        .description("Incus REST call latency").baseUnit("seconds")
        .tags(List.of(Tag.create("operation", operation)))).record(latency);
  }

  /** Gauges of the CodeMode worker pool: executions running now and the configured maximum. */
  public void workerPool(Supplier<? extends Number> busy, Supplier<? extends Number> capacity) {
    registry.getOrCreate(Gauge.builder("agentcompute.workers.busy", busy::get)
        .description("CodeMode worker processes running"));
    registry.getOrCreate(Gauge.builder("agentcompute.workers.capacity", capacity::get)
        .description("CodeMode maximum concurrent executions"));
  }

  /** Gauge of open MCP sessions over HTTP. */
  void sessions(Supplier<? extends Number> open) {
    registry.getOrCreate(Gauge.builder("agentcompute.mcp.sessions", open::get)
        .description("Open MCP sessions over HTTP"));
  }

  /** Counter of configuration reload attempts by result (applied, pending, rejected). */
  void reload(String result) {
    registry.getOrCreate(Counter.builder("agentcompute.config.reloads")
        .description("Configuration reload attempts by result")
        .tags(List.of(Tag.create("result", result)))).increment();
  }

  double count(String name, String tagKey, String tagValue) {
    return registry.counter(name, List.of(Tag.create(tagKey, tagValue)))
        .map(c -> (double) c.count()).orElse(0.0);
  }
}
