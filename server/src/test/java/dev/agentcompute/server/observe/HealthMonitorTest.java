package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class HealthMonitorTest {

  private static ReadinessCheck check(
      String name, java.util.concurrent.Callable<ReadinessCheck.Result> body) {
    return new ReadinessCheck() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Result check() throws Exception {
        return body.call();
      }
    };
  }

  private static HealthMonitor.State await(HealthMonitor m, String name, String status)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    HealthMonitor.State s = null;
    while (System.nanoTime() < deadline) {
      s = m.states(Duration.ZERO).get(name);
      if (s.status().equals(status)) {
        return s;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(name + " never became " + status + "; last " + s);
  }

  @Test
  void aHangingCheckIsDownWithinItsTimeoutAndTheAnswerStaysFast() throws Exception {
    CountDownLatch thaw = new CountDownLatch(1);
    ServerMetrics metrics = ServerMetrics.inMemory();
    try (HealthMonitor m =
        new HealthMonitor(
            metrics,
            Duration.ofMillis(200),
            Duration.ofMillis(300),
            Duration.ofSeconds(5),
            Clock.systemUTC())) {
      java.util.concurrent.atomic.AtomicBoolean frozen =
          new java.util.concurrent.atomic.AtomicBoolean();
      m.add(
          check(
              "incus",
              () -> {
                if (frozen.get()) {
                  thaw.await();
                }
                return ReadinessCheck.Result.up(Map.of("api", "1.0"));
              }));
      HealthMonitor.State up = await(m, "incus", "UP");
      assertThat(up.lastOk()).isNotNull();
      frozen.set(true);
      HealthMonitor.State down = await(m, "incus", "DOWN");
      assertThat(down.reason()).isEqualTo("no answer within 300 ms");
      assertThat(down.lastOk()).isEqualTo(up.lastOk());
      long start = System.nanoTime();
      m.states(Duration.ofSeconds(1));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(100));
      frozen.set(false);
      thaw.countDown();
      assertThat(await(m, "incus", "UP").lastOk()).isAfter(up.lastOk());
    }
  }

  @Test
  void aFailingCheckIsDownWithItsReasonAndASlowOneDegraded() throws Exception {
    try (HealthMonitor m =
        new HealthMonitor(
            null,
            Duration.ofMillis(200),
            Duration.ofSeconds(2),
            Duration.ofMillis(50),
            Clock.systemUTC())) {
      m.add(check("ovn", () -> ReadinessCheck.Result.down("connection refused")));
      m.add(
          check(
              "lume",
              () -> {
                Thread.sleep(100);
                return ReadinessCheck.Result.up(Map.of());
              }));
      Map<String, HealthMonitor.State> first = m.states(Duration.ofSeconds(2));
      assertThat(first.get("ovn").status()).isEqualTo("DOWN");
      assertThat(first.get("ovn").reason()).isEqualTo("connection refused");
      assertThat(first.get("ovn").lastOk()).isNull();
      assertThat(await(m, "lume", "DEGRADED").reason()).startsWith("answered in ");
    }
  }
}
