package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Profile;
import dev.agentcompute.incus.Project;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cross-server lock against the real incusd, with two servers played by two {@link
 * ProjectMutex} instances (each has its own local lock, so only the Incus markers stand between
 * them).
 */
class ProjectMutexIT {
  private static final String COUNTER = "user.test.counter";

  private IncusClient client;
  private final String project =
      "acm" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));

  @BeforeEach
  void createProject() {
    client = LocalIncus.client();
    client.projects().create(project, "ProjectMutexIT", Map.of("features.profiles", "true"));
  }

  @AfterEach
  void deleteProject() {
    IncusClient scoped = client.inProject(project);
    for (String name : scoped.profiles().names()) {
      if (!name.equals("default")) {
        IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(name));
      }
    }
    IncusFailures.ignoreNotFound(() -> client.projects().delete(project));
    client.close();
  }

  @Test
  void twoServersIncrementingOneCounterLoseNoIncrement() throws Exception {
    List<ProjectMutex> servers =
        List.of(
            new ProjectMutex(client, Clock.systemUTC()),
            new ProjectMutex(client, Clock.systemUTC()));
    int threadsPerServer = 3;
    int incrementsPerThread = 8;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    CyclicBarrier start = new CyclicBarrier(2 * threadsPerServer);
    ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerServer);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (ProjectMutex server : servers) {
        for (int t = 0; t < threadsPerServer; t++) {
          runs.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = 0; i < incrementsPerThread; i++) {
                      server.locked(
                          project,
                          "meta",
                          held -> {
                            if (inside.incrementAndGet() > 1) {
                              overlaps.incrementAndGet();
                            }
                            try {
                              // Read and write without an ETag: only the lock keeps this whole.
                              Project current = client.projects().get(project);
                              Map<String, String> cfg = new HashMap<>(current.config());
                              int n = Integer.parseInt(cfg.getOrDefault(COUNTER, "0"));
                              cfg.put(COUNTER, Integer.toString(n + 1));
                              held.check();
                              client.projects().update(current.withConfig(cfg), null);
                              return null;
                            } finally {
                              inside.decrementAndGet();
                            }
                          });
                    }
                    return null;
                  }));
        }
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(overlaps).hasValue(0);
    assertThat(client.projects().get(project).config())
        .containsEntry(COUNTER, Integer.toString(2 * threadsPerServer * incrementsPerThread));
    assertThat(markers()).as("every marker withdrawn").isEmpty();
  }

  @Test
  void aMarkerLeftByADeadServerIsDeletedOnceStale() {
    IncusClient scoped = client.inProject(project);
    long died = System.currentTimeMillis() - ProjectMutex.STALE.toMillis() - 1_000;
    String left = ProjectMutex.MARKER_PREFIX + "meta-" + String.format("%013d-deadbeef0000", died);
    scoped.profiles().create(new Profile(left, "", Map.of(), Map.of(), List.of(), null));

    String result =
        new ProjectMutex(client, Clock.systemUTC()).locked(project, "meta", held -> "ran");

    assertThat(result).isEqualTo("ran");
    assertThat(markers()).isEmpty();
  }

  @Test
  void aSectionThatOutlivesItsHoldRunsAgainUnderAFreshMarker() {
    // The section's first run finds its hold older than HOLD before its write (a stalled holder
    // whose marker others are about to take for dead): it must not write, and runs again.
    MutableClock clock = new MutableClock();
    List<String> markersSeen = new ArrayList<>();
    AtomicInteger writes = new AtomicInteger();

    String result =
        new ProjectMutex(client, clock)
            .locked(
                project,
                "meta",
                held -> {
                  markersSeen.addAll(markers());
                  if (markersSeen.size() == 1) {
                    clock.advance(ProjectMutex.HOLD.toMillis() + 1);
                  }
                  held.check();
                  writes.incrementAndGet();
                  return "written";
                });

    assertThat(result).isEqualTo("written");
    assertThat(writes).as("only the second run wrote").hasValue(1);
    assertThat(markersSeen).hasSize(2).doesNotHaveDuplicates();
    assertThat(markers()).isEmpty();
  }

  /** The system clock, plus what a test added. */
  private static final class MutableClock extends Clock {
    private volatile long offset;

    void advance(long millis) {
      offset += millis;
    }

    @Override
    public long millis() {
      return System.currentTimeMillis() + offset;
    }

    @Override
    public java.time.Instant instant() {
      return java.time.Instant.ofEpochMilli(millis());
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aLiveMarkerOfAnotherServerIsWaitedFor() throws Exception {
    IncusClient scoped = client.inProject(project);
    String held =
        ProjectMutex.MARKER_PREFIX
            + "meta-"
            + String.format("%013d-0000feedface", System.currentTimeMillis() - 2_000);
    scoped.profiles().create(new Profile(held, "", Map.of(), Map.of(), List.of(), null));
    AtomicInteger ran = new AtomicInteger();
    Thread other =
        Thread.ofPlatform()
            .start(
                () ->
                    new ProjectMutex(client, Clock.systemUTC())
                        .locked(project, "meta", h -> ran.incrementAndGet()));

    other.join(1_000);
    assertThat(ran).as("not while the other server holds the lock").hasValue(0);
    scoped.profiles().delete(held);
    other.join(10_000);
    assertThat(ran).hasValue(1);
    assertThat(markers()).isEmpty();
  }

  @Test
  void locksWithOtherKeysDoNotExcludeEachOther() {
    ProjectMutex mutex = new ProjectMutex(client, Clock.systemUTC());
    String nested =
        mutex.locked(
            project,
            "meta",
            held ->
                new ProjectMutex(client, Clock.systemUTC())
                    .locked(project, "reaper", inner -> "both"));
    assertThat(nested).isEqualTo("both");
  }

  @Test
  void aMissingProjectIsNotFoundAndLeavesNothing() {
    ProjectMutex mutex = new ProjectMutex(client, Clock.systemUTC());
    assertThatThrownBy(() -> mutex.locked(project + "-gone", "meta", held -> "never"))
        .isInstanceOf(IncusException.class)
        .satisfies(e -> assertThat(IncusFailures.isNotFound((IncusException) e)).isTrue());
  }

  private List<String> markers() {
    return client.inProject(project).profiles().names().stream()
        .filter(name -> name.startsWith(ProjectMutex.MARKER_PREFIX))
        .toList();
  }
}
