package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.reaper.Reaper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Closing the reaper while a scan is in flight: close returns only once that scan has finished,
 * undisturbed, and no call of the reaper's follows it (a runtime closed on a generation switch must
 * not keep talking to its Incus).
 */
class ReaperCloseTest {

  /** A lease whose first acquire blocks until the test lets it go, as a slow Incus call would. */
  private static final class SlowLease implements ReaperLease {
    final CountDownLatch inAcquire = new CountDownLatch(1);
    final CountDownLatch letGo = new CountDownLatch(1);
    final AtomicInteger acquires = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();
    volatile boolean interrupted;

    @Override
    public boolean acquire(String holder, Instant now, Duration period) {
      if (acquires.incrementAndGet() == 1) {
        inAcquire.countDown();
        try {
          letGo.await();
        } catch (InterruptedException e) {
          interrupted = true;
          Thread.currentThread().interrupt();
        }
      }
      return true;
    }

    @Override
    public void release(String holder) {
      releases.incrementAndGet();
    }
  }

  @Test
  void closeWaitsForTheScanInFlightAndNothingFollowsIt() throws Exception {
    InMemoryPlatform backend = new InMemoryPlatform();
    SandboxService sandboxes =
        Compute.over(
                new PlatformRouter(List.of(backend.platform())),
                ComputeConfig.defaults(),
                ImageCatalog.parse("schema_version: 1\nimages: []\n"),
                Clock.systemUTC(),
                new SplittableRandom(1))
            .sandboxes();
    SlowLease lease = new SlowLease();
    Reaper reaper =
        new Reaper(sandboxes, Duration.ofMillis(10), lease, Duration.ofSeconds(1), "test");
    reaper.start();
    assertThat(lease.inAcquire.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closed = CompletableFuture.runAsync(reaper::close);
    Thread.sleep(200);
    assertThat(closed).as("close while the scan is still in Incus").isNotDone();

    lease.letGo.countDown();
    closed.get(10, TimeUnit.SECONDS);
    assertThat(lease.interrupted).as("the scan in flight was interrupted").isFalse();
    assertThat(lease.releases.get()).isEqualTo(1);
    int acquiresAtClose = lease.acquires.get();
    Thread.sleep(100);
    assertThat(lease.acquires.get()).as("scans after close").isEqualTo(acquiresAtClose);
  }
}
