package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.service.SandboxService;
import dev.agentcompute.server.observe.Log;
import dev.agentcompute.server.observe.ServerMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Counts live sandboxes and their instances by platform every {@link #PERIOD} in the background
 * (one sandbox list and one instance count per platform), so a /metrics scrape costs Incus nothing.
 * A failed count keeps the previous numbers and is logged at debug level; {@code
 * agentcompute_dependency_up} says when a backend is down.
 */
public final class InventoryGauges implements AutoCloseable {
  static final Duration PERIOD = Duration.ofSeconds(30);
  private static final Log LOG = Log.of(InventoryGauges.class);

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("agentcompute-inventory").factory());

  private InventoryGauges() {}

  public static InventoryGauges start(ComputeGenerations compute, ServerMetrics metrics) {
    InventoryGauges gauges = new InventoryGauges();
    gauges.timer.scheduleWithFixedDelay(
        () -> gauges.count(compute, metrics), 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    return gauges;
  }

  private void count(ComputeGenerations compute, ServerMetrics metrics) {
    try {
      SandboxService sandboxes = compute.current().runtime().compute().sandboxes();
      Instant now = sandboxes.now();
      Map<String, long[]> counts = new TreeMap<>();
      for (SandboxService.Listed listed : sandboxes.list()) {
        if (!listed.sandbox().isLive(now)) {
          continue;
        }
        long[] c = counts.computeIfAbsent(listed.sandbox().platform(), p -> new long[2]);
        c[0]++;
        c[1] += listed.instances();
      }
      // A platform whose last sandbox went away shows 0, not its old count.
      for (String platform :
          compute.current().runtime().compute().router().platforms().stream()
              .map(p -> p.name())
              .toList()) {
        counts.putIfAbsent(platform, new long[2]);
      }
      metrics.inventoryCounted(counts);
    } catch (RuntimeException e) {
      LOG.debug("cannot count sandboxes for /metrics", "error", String.valueOf(e.getMessage()));
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
