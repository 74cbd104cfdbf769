package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.incus.IncusClient;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cross-server lock {@code network-create} against the real incusd, two servers played by two
 * {@link NetworkCreations} over two {@link ProjectMutex} instances, each told it is on a cluster: a
 * creation that takes longer than a marker stays live ({@link ProjectMutex#STALE}) keeps the lock
 * until it returns, and the other server's creation waits for it.
 */
class NetworkCreationsIT {
  private static final String PREFIX = ProjectMutex.MARKER_PREFIX + NetworkCreations.KEY + "-";

  private IncusClient client;

  @BeforeEach
  void connect() {
    client = LocalIncus.client();
    assertThat(markers()).as("no network-create lock taken on this incusd before").isEmpty();
  }

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void aCreationLongerThanTheStaleBoundKeepsTheLockAndTheOtherServerWaits() throws Exception {
    NetworkCreations first =
        new NetworkCreations(() -> true, new ProjectMutex(client, Clock.systemUTC()));
    NetworkCreations second =
        new NetworkCreations(() -> true, new ProjectMutex(client, Clock.systemUTC()));
    long slow = ProjectMutex.STALE.toMillis() + 3_000;
    CountDownLatch firstStarted = new CountDownLatch(1);
    ExecutorService servers = Executors.newFixedThreadPool(2);
    try {
      Future<long[]> slowOne =
          servers.submit(
              () ->
                  first.onEveryMember(
                      () -> {
                        long start = System.currentTimeMillis();
                        firstStarted.countDown();
                        sleep(slow);
                        return new long[] {start, System.currentTimeMillis()};
                      }));
      assertThat(firstStarted.await(20, TimeUnit.SECONDS)).isTrue();
      sleep(1_000);
      Future<Long> waiting = servers.submit(() -> second.onEveryMember(System::currentTimeMillis));

      long[] firstRan = slowOne.get(60, TimeUnit.SECONDS);
      long secondRan = waiting.get(60, TimeUnit.SECONDS);
      assertThat(firstRan[1] - firstRan[0]).isGreaterThanOrEqualTo(slow);
      assertThat(secondRan)
          .as(
              "the second server's creation ran %d ms after the first one's start, which took %d"
                  + " ms: it must not run before the first one has returned",
              secondRan - firstRan[0], firstRan[1] - firstRan[0])
          .isGreaterThanOrEqualTo(firstRan[1]);
    } finally {
      servers.shutdownNow();
    }
    assertThat(markers()).as("every marker withdrawn").isEmpty();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private List<String> markers() {
    return client.inProject("default").profiles().names().stream()
        .filter(name -> name.startsWith(PREFIX))
        .toList();
  }
}
