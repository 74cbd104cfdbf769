package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.Profile;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Mutual exclusion, between every server on one Incus, for a read-modify-write of a project's
 * config.
 *
 * <p>If-Match alone does not give it: Incus reads the project and checks the ETag in one
 * transaction and writes in another (projectPut in api_project.go), so two PUTs carrying the same
 * ETag can both succeed and the first write is lost. What Incus does do atomically is create an
 * object with a unique name, and with one database leader a listing sees every creation that
 * finished before it. So each contender creates its own marker profile in the project, then lists
 * the project's markers: it holds the lock when its marker is the only live one. Two contenders
 * cannot both see only themselves, because each created its marker before it listed. When it sees
 * others, the contender with the lowest marker keeps its marker and looks again; the rest withdraw
 * theirs and come back after a random back-off, so contention ends instead of repeating.
 *
 * <p>A marker names its creation time; one older than {@link #STALE} belongs to a server that died
 * while holding the lock (a critical section is two Incus calls) and is deleted by whoever finds
 * it. STALE is short because a server killed inside its critical section (the reaper takes this
 * lock every scan) blocks every other server until its marker goes stale. So that a live holder
 * never writes after others may have taken its marker for dead, a critical section calls {@link
 * Held#check()} before its write: past {@link #HOLD} from its marker's creation the check fails,
 * and the mutex withdraws the marker and runs the section again (its reads had no effect). The
 * {@code STALE - HOLD} margin covers the write itself and the servers' clock difference. Within one
 * server, contenders for the same project queue on a local lock first, so the markers only ever
 * meet markers of other servers.
 *
 * <p>A step that may take longer than that and cannot be run again (a request that creates
 * something) runs under {@link Held#renewing}: while it runs, the holder creates a fresh marker
 * every {@link #HOLD} and then withdraws the one before it, so one of its markers is always younger
 * than {@code STALE} and no other server takes the lock until the step has returned. A fresh marker
 * is a new profile of the same form, so servers that do not renew still read it right.
 */
final class ProjectMutex {
  private static final System.Logger LOG = System.getLogger(ProjectMutex.class.getName());
  static final String MARKER_PREFIX = "agentcompute-lock-";
  static final Duration STALE = Duration.ofSeconds(10);
  static final Duration HOLD = Duration.ofSeconds(4);
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration RENEW_RETRY = Duration.ofMillis(500);
  private static final int STRIPES = 64;

  private final IncusClient client;
  private final Clock clock;
  private final ReentrantLock[] local = new ReentrantLock[STRIPES];

  ProjectMutex(IncusClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
    for (int i = 0; i < STRIPES; i++) {
      local[i] = new ReentrantLock(true);
    }
  }

  /** A critical section's hold on the lock. */
  interface Held {
    /** Throws (and the mutex runs the section again) when the hold is too old to write under. */
    void check();

    /**
     * Runs {@code step}, which may take longer than {@link #HOLD}, keeping the lock held until it
     * returns: the holder's marker is renewed every {@code HOLD} meanwhile. For a step that must
     * not run twice; call {@link #check()} right before it.
     */
    <T> T renewing(Supplier<T> step);
  }

  /** Thrown by {@link Held#check()}; never leaves {@link #locked}. */
  private static final class HoldExpired extends RuntimeException {
    HoldExpired() {
      super(null, null, false, false);
    }
  }

  /**
   * Runs {@code body} while holding the lock named {@code key} on {@code project}; {@code body}
   * calls {@link Held#check()} right before its write and may run more than once. Not found when
   * the project is gone, conflict when the lock stays taken for {@link #WAIT}.
   */
  <T> T locked(String project, String key, Function<Held, T> body) {
    ReentrantLock stripe = local[Math.floorMod((project + "/" + key).hashCode(), STRIPES)];
    stripe.lock();
    try {
      IncusClient scoped = client.inProject(project);
      long deadline = clock.millis() + WAIT.toMillis();
      String prefix = MARKER_PREFIX + key + "-";
      while (true) {
        AtomicReference<Marker> mine =
            new AtomicReference<>(acquire(scoped, project, key, deadline));
        try {
          return body.apply(
              new Held() {
                @Override
                public void check() {
                  if (clock.millis() - mine.get().createdAt() > HOLD.toMillis()) {
                    throw new HoldExpired();
                  }
                }

                @Override
                public <R> R renewing(Supplier<R> step) {
                  return renewingWhile(scoped, prefix, mine, step);
                }
              });
        } catch (HoldExpired e) {
          if (clock.millis() > deadline) {
            throw failure(
                Kind.UNAVAILABLE,
                key,
                project,
                "could not be held for the "
                    + HOLD.toSeconds()
                    + " s a change may take (Incus answers too slowly)");
          }
        } finally {
          IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(mine.get().name()));
        }
      }
    } finally {
      stripe.unlock();
    }
  }

  /** A marker profile this server created, and when (by its clock). */
  private record Marker(String name, long createdAt) {}

  /**
   * Runs {@code step} while a renewer replaces {@code mine} with a fresh marker each time it is
   * {@link #HOLD} old (created first, the old one withdrawn after, so one is always live). The
   * renewer is stopped, never interrupted, once the step has returned: a marker it is creating then
   * is still recorded in {@code mine} and withdrawn with the lock.
   */
  private <R> R renewingWhile(
      IncusClient scoped, String prefix, AtomicReference<Marker> mine, Supplier<R> step) {
    CountDownLatch done = new CountDownLatch(1);
    Thread renewer =
        Thread.ofVirtual()
            .name("lock-renewer " + prefix)
            .start(
                () -> {
                  while (true) {
                    long due = mine.get().createdAt() + HOLD.toMillis() - clock.millis();
                    try {
                      if (done.await(Math.max(due, 0), TimeUnit.MILLISECONDS)) {
                        return;
                      }
                    } catch (InterruptedException e) {
                      return;
                    }
                    renew(scoped, prefix, mine);
                  }
                });
    try {
      return step.get();
    } finally {
      done.countDown();
      try {
        renewer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One renewal: a fresh marker, then the old one withdrawn; a failure is logged and retried. */
  private void renew(IncusClient scoped, String prefix, AtomicReference<Marker> mine) {
    long createdAt = clock.millis();
    String fresh = prefix + marker(createdAt);
    try {
      scoped
          .profiles()
          .create(new Profile(fresh, "agentcompute lock", Map.of(), Map.of(), List.of(), null));
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "lock renewal failed marker=" + fresh + " err=" + e.getMessage());
      pause(RENEW_RETRY.toMillis());
      return;
    }
    Marker old = mine.getAndSet(new Marker(fresh, createdAt));
    try {
      IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(old.name()));
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "lock renewal left marker="
              + old.name()
              + " (stale in "
              + STALE.toSeconds()
              + " s)"
              + " err="
              + e.getMessage());
    }
  }

  private Marker acquire(IncusClient scoped, String project, String key, long deadline) {
    String prefix = MARKER_PREFIX + key + "-";
    long backoff = 5;
    while (true) {
      long createdAt = clock.millis();
      String mine = prefix + marker(createdAt);
      scoped
          .profiles()
          .create(new Profile(mine, "agentcompute lock", Map.of(), Map.of(), List.of(), null));
      String lowest;
      try {
        lowest = contend(scoped, prefix, mine, deadline);
      } catch (RuntimeException e) {
        IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(mine));
        throw e;
      }
      if (lowest.equals(mine)) {
        return new Marker(mine, createdAt);
      }
      IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(mine));
      if (clock.millis() > deadline) {
        throw failure(
            Kind.CONFLICT,
            key,
            project,
            "stayed taken for " + WAIT.toSeconds() + " s (marker " + lowest + ")");
      }
      pause(ThreadLocalRandom.current().nextLong(backoff, 2 * backoff + 1));
      backoff = Math.min(backoff * 2, 200);
    }
  }

  private static BackendException failure(Kind kind, String key, String project, String what) {
    return new BackendException(kind, "the " + key + " lock of project " + project + " " + what);
  }

  /**
   * Lists the markers until {@code mine} is the only one (returns it), or another is lower or the
   * deadline passed (returns the lowest other, and the caller withdraws).
   */
  private String contend(IncusClient scoped, String prefix, String mine, long deadline) {
    long wait = 5;
    while (true) {
      List<String> live = liveMarkers(scoped, prefix);
      if (live.equals(List.of(mine))) {
        return mine;
      }
      if (!live.contains(mine)) {
        return "(" + mine + " was deleted)"; // the project is being deleted, or our clock is off
      }
      String lowest = live.stream().filter(m -> !m.equals(mine)).sorted().findFirst().orElse(mine);
      if (lowest.compareTo(mine) < 0 || clock.millis() > deadline) {
        return lowest;
      }
      // The others are withdrawing, within milliseconds; a holder renewing its marker (which is
      // then younger than ours) is not, so the looks grow further apart up to 200 ms.
      pause(wait + ThreadLocalRandom.current().nextLong(2 * wait));
      wait = Math.min(wait * 2, 200);
    }
  }

  /** The markers of {@code prefix} that are not stale; stale ones are deleted on the way. */
  private List<String> liveMarkers(IncusClient scoped, String prefix) {
    long now = clock.millis();
    List<String> live = new ArrayList<>();
    for (String name : scoped.profiles().names()) {
      if (!name.startsWith(prefix)) {
        continue;
      }
      if (now - createdAt(name.substring(prefix.length())) <= STALE.toMillis()) {
        live.add(name);
      } else {
        IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(name));
      }
    }
    return live;
  }

  /** {@code <creation millis, 13 digits>-<random>}: sorts by age, unique without coordination. */
  private static String marker(long millis) {
    byte[] nonce = new byte[6];
    ThreadLocalRandom.current().nextBytes(nonce);
    return String.format("%013d-%s", millis, HexFormat.of().formatHex(nonce));
  }

  private static long createdAt(String marker) {
    int dash = marker.indexOf('-');
    try {
      return Long.parseLong(dash < 0 ? marker : marker.substring(0, dash));
    } catch (NumberFormatException e) {
      return 0; // not one of ours: stale at once
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendException(Kind.UNAVAILABLE, "interrupted while waiting for a lock", e);
    }
  }
}
