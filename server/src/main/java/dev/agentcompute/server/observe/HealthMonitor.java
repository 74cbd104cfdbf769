package dev.agentcompute.server.observe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks every dependency in the background, so /health answers from the last results at once
 * whatever the dependencies do (a frozen incusd included). Each {@link ReadinessCheck} runs every
 * {@code interval} on a virtual thread of its own; one that has not answered within {@code timeout}
 * is DOWN ({@code no answer within 3 s}) until it answers, and no second probe of it starts while
 * the first hangs. A check that answers up, but slower than {@code slow}, is DEGRADED. Each state
 * keeps the time of the last good answer.
 */
public final class HealthMonitor implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofSeconds(5);
  static final Duration TIMEOUT = Duration.ofSeconds(3);
  static final Duration SLOW = Duration.ofSeconds(1);

  /** UP, DOWN or DEGRADED, why, and when. */
  public record State(
      String status,
      String reason,
      Instant checkedAt,
      Instant lastOk,
      long tookMillis,
      Map<String, Object> details) {
    public boolean usable() {
      return !status.equals("DOWN");
    }
  }

  private final class Entry {
    final ReadinessCheck check;
    volatile State state;
    volatile Instant lastOk;
    volatile CompletableFuture<State> inFlight;
    volatile Instant inFlightSince;
    final CompletableFuture<State> first = new CompletableFuture<>();

    Entry(ReadinessCheck check) {
      this.check = check;
    }
  }

  private final Duration interval;
  private final Duration timeout;
  private final Duration slow;
  private final Clock clock;
  private final ServerMetrics metrics;
  private final CopyOnWriteArrayList<Entry> entries = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("agentcompute-health").factory());

  public HealthMonitor(ServerMetrics metrics) {
    this(metrics, INTERVAL, TIMEOUT, SLOW, Clock.systemUTC());
  }

  HealthMonitor(
      ServerMetrics metrics, Duration interval, Duration timeout, Duration slow, Clock clock) {
    this.metrics = metrics;
    this.interval = interval;
    this.timeout = timeout;
    this.slow = slow;
    this.clock = clock;
    timer.scheduleWithFixedDelay(
        this::probeAll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Adds a dependency and probes it at once. */
  public void add(ReadinessCheck check) {
    Entry entry = new Entry(check);
    entries.add(entry);
    if (metrics != null) {
      metrics.dependencyUp(check.name(), () -> entry.state != null && entry.state.usable() ? 1 : 0);
    }
    timer.execute(() -> probe(entry));
  }

  /**
   * The last state of every dependency, by name. A dependency never checked yet is waited for up to
   * {@code firstWait} (a server just started), then shown DOWN {@code not checked yet}.
   */
  public Map<String, State> states(Duration firstWait) {
    long deadline = System.nanoTime() + firstWait.toNanos();
    Map<String, State> out = new LinkedHashMap<>();
    for (Entry e : entries) {
      State s = e.state;
      if (s == null) {
        try {
          s = e.first.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException ex) {
          s = new State("DOWN", "not checked yet", null, null, 0, Map.of());
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          s = new State("DOWN", "not checked yet", null, null, 0, Map.of());
        }
      }
      out.put(e.check.name(), s);
    }
    return out;
  }

  private void probeAll() {
    for (Entry e : entries) {
      probe(e);
    }
  }

  private void probe(Entry e) {
    CompletableFuture<State> running = e.inFlight;
    if (running != null && !running.isDone()) {
      // Still hanging: its timeout already marked it DOWN; do not pile up probes.
      return;
    }
    Instant started = clock.instant();
    long startNanos = System.nanoTime();
    CompletableFuture<State> probe = new CompletableFuture<>();
    e.inFlight = probe;
    e.inFlightSince = started;
    Thread.ofVirtual()
        .name("health-" + e.check.name())
        .start(
            () -> {
              State s = run(e, started, startNanos);
              probe.complete(s);
              record(e, s);
            });
    timer.schedule(
        () -> {
          if (!probe.isDone()) {
            record(
                e,
                new State(
                    "DOWN",
                    "no answer within " + shown(timeout),
                    started,
                    e.lastOk,
                    timeout.toMillis(),
                    Map.of()));
          }
        },
        timeout.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private State run(Entry e, Instant started, long startNanos) {
    ReadinessCheck.Result result;
    try {
      result = e.check.check();
    } catch (Exception ex) {
      result = ReadinessCheck.Result.down(String.valueOf(ex.getMessage()));
    }
    long took = (System.nanoTime() - startNanos) / 1_000_000;
    if (!result.up()) {
      Object reason = result.details().get("error");
      return new State(
          "DOWN",
          reason == null ? "down" : String.valueOf(reason),
          started,
          e.lastOk,
          took,
          result.details());
    }
    Instant now = clock.instant();
    if (took > slow.toMillis()) {
      return new State(
          "DEGRADED", "answered in " + took + " ms", started, now, took, result.details());
    }
    return new State("UP", null, started, now, took, result.details());
  }

  private synchronized void record(Entry e, State s) {
    // A late answer of an older probe never overwrites a newer state.
    if (e.state != null
        && e.state.checkedAt() != null
        && s.checkedAt() != null
        && s.checkedAt().isBefore(e.state.checkedAt())) {
      return;
    }
    if (s.usable()) {
      e.lastOk = s.lastOk();
    }
    e.state = s;
    e.first.complete(s);
  }

  private static String shown(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
