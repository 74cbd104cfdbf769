package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.incus.IncusException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Incus failures that are races inside Incus, not answers: while one bridge is created or deleted,
 * Incus lists every bridge's member interfaces and fails when a veth of another container vanishes
 * between the listing and its {@code ip link show} ({@code Failed to delete bridge children
 * interfaces ... Device "veth..." does not exist}). Seen 5 times in 12 concurrent sandbox cycles;
 * the same call a moment later succeeds. These, and only these, are retried a bounded number of
 * times.
 */
final class IncusRaces {
  private static final Logger LOG = System.getLogger(IncusRaces.class.getName());
  private static final int ATTEMPTS = 6;
  private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

  /**
   * Texts of the known races (each from the Incus version this project runs). The third: Incus saw
   * the bridge's device, then found it gone when it ran {@code ip link delete} (twice in 100
   * sandbox cycles beside other tests); the retry finds no device and deletes the network.
   */
  static final List<String> SIGNATURES =
      List.of(
          "Failed to delete bridge children interfaces",
          "database is locked",
          "Failed to run: ip link delete dev");

  private IncusRaces() {}

  static boolean isRace(RuntimeException e) {
    String message = String.valueOf(e.getMessage());
    return e instanceof IncusException && SIGNATURES.stream().anyMatch(message::contains);
  }

  /** Runs {@code action}, again after a short pause while it fails with a known race. */
  static <T> T retried(String what, Supplier<T> action) {
    return retried(what, action, IncusRaces::isRace);
  }

  /** As {@link #retried(String, Supplier)}, with the race test given (unit tests). */
  static <T> T retried(String what, Supplier<T> action, Predicate<RuntimeException> race) {
    Duration pause = FIRST_PAUSE;
    for (int attempt = 1; ; attempt++) {
      try {
        return action.get();
      } catch (RuntimeException e) {
        if (attempt >= ATTEMPTS || !race.test(e)) {
          throw e;
        }
        LOG.log(
            Level.DEBUG, "{0} hit an Incus race, retrying (attempt {1}): {2}", what, attempt, e);
        Cancellation.sleep(pause);
        pause = pause.multipliedBy(2);
      }
    }
  }

  static void retried(String what, Runnable action) {
    retried(
        what,
        () -> {
          action.run();
          return null;
        });
  }
}
