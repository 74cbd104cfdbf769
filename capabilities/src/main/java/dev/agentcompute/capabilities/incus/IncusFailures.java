package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;

/**
 * Where incus-client's typed failures become this module's: the Incus platform hands the services
 * its ports through {@link IncusPorts}, so every call crosses one translation and the code inside
 * can catch {@link IncusException} subtypes (not found, conflict) where it cares and let the rest
 * fall through. A cancelled call becomes the {@link CancellationException} the service expects of a
 * cancelled caller.
 */
final class IncusFailures {

  private IncusFailures() {}

  static <T> T translated(Supplier<T> body) {
    try {
      return body.get();
    } catch (IncusException e) {
      throw translate(e);
    }
  }

  static void translated(Runnable body) {
    translated(
        () -> {
          body.run();
          return null;
        });
  }

  static RuntimeException translate(IncusException e) {
    if (e instanceof IncusException.Cancelled) {
      return Cancellation.canceled(e);
    }
    if (isDiskFull(e)) {
      return diskFull(e, DiskFull.of(e).text(null, null));
    }
    if (e instanceof IncusException.TimedOut t && t.unanswered().isPresent()) {
      return new BackendException(
          Kind.UNAVAILABLE, e.getMessage(), e, unanswered(t.unanswered().get()));
    }
    return new BackendException(kindOf(e), e.getMessage(), e);
  }

  /**
   * Runs {@code body}, a write into instance {@code instance}; a full disk becomes the agent text
   * that names the instance, its root disk's size (read from Incus only then) and the fix. Other
   * failures pass through untranslated, for the port's translation.
   */
  static <T> T writing(IncusClient project, String instance, Supplier<T> body) {
    try {
      return body.get();
    } catch (IncusException e) {
      if (!isDiskFull(e)) {
        throw e;
      }
      String size = null;
      try {
        size =
            project
                .instances()
                .get(instance)
                .expandedDevices()
                .getOrDefault("root", java.util.Map.of())
                .get("size");
      } catch (IncusException unreadable) {
        e.addSuppressed(unreadable);
      }
      throw diskFull(e, DiskFull.of(e).text(instance, size));
    }
  }

  static void writing(IncusClient project, String instance, Runnable body) {
    writing(
        project,
        instance,
        () -> {
          body.run();
          return null;
        });
  }

  /**
   * Whether Incus refused a write for want of space: the root disk's size quota ({@code disk quota
   * exceeded}, enforced on btrfs and zfs pools, not on {@code dir}) or the pool itself ({@code no
   * space left on device}). Incus gives no type for either, only the kernel's text.
   */
  static boolean isDiskFull(IncusException e) {
    return DiskFull.find(e).isPresent();
  }

  private static BackendException diskFull(IncusException e, String agentText) {
    return new BackendException(Kind.FAILED, e.getMessage(), e, agentText);
  }

  /** The two ways a disk is full, each with the fix an agent can apply. */
  enum DiskFull {
    /** The instance's root disk reached its size (the quota a copy-on-write pool enforces). */
    QUOTA("disk quota exceeded"),
    /** The storage pool under every instance is full. */
    POOL("no space left on device");

    private final String kernelText;

    DiskFull(String kernelText) {
      this.kernelText = kernelText;
    }

    static java.util.Optional<DiskFull> find(IncusException e) {
      String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
      for (DiskFull kind : values()) {
        if (message.contains(kind.kernelText)) {
          return java.util.Optional.of(kind);
        }
      }
      return java.util.Optional.empty();
    }

    static DiskFull of(IncusException e) {
      return find(e).orElseThrow();
    }

    /** The agent's sentence; {@code instance} and {@code size} may be unknown (null). */
    String text(String instance, String size) {
      String which = instance == null ? "the instance" : "instance \"" + instance + "\"";
      return switch (this) {
        case QUOTA ->
            "the root disk of "
                + which
                + (size == null ? "" : " (" + size + ")")
                + " is full (disk quota exceeded): delete files in it, or create the instance"
                + " again with a larger disk_gb (instance.create(..., disk_gb=N))";
        case POOL ->
            "the storage pool holding "
                + which
                + "'s root disk"
                + (size == null ? "" : " (" + size + ")")
                + " is full (no space left on device): delete files, snapshots or instances you no"
                + " longer need; an operator can grow the pool";
      };
    }
  }

  /** What an agent is told when Incus stayed silent: the wait, and that retrying is the fix. */
  static String unanswered(java.time.Duration wait) {
    long s = wait.toSeconds();
    return "Incus did not answer within "
        + (s > 0 ? s + " s" : wait.toMillis() + " ms")
        + "; retry later";
  }

  static Kind kindOf(IncusException e) {
    return switch (e) {
      case IncusException.NotFound n -> Kind.NOT_FOUND;
      case IncusException.Conflict c -> Kind.CONFLICT;
      case IncusException.Unavailable u -> Kind.UNAVAILABLE;
      // Some lookups fail inside an operation (no HTTP 404), with the server's "not found" text.
      default ->
          String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("not found")
              ? Kind.NOT_FOUND
              : Kind.FAILED;
    };
  }

  /** Runs {@code action}; an object that is already gone is fine. */
  static void ignoreNotFound(Runnable action) {
    try {
      action.run();
    } catch (IncusException e) {
      if (!isNotFound(e)) {
        throw e;
      }
    }
  }

  /** Reads with {@code read}; an object that does not exist is empty. */
  static <T> java.util.Optional<T> unlessNotFound(Supplier<T> read) {
    try {
      return java.util.Optional.of(read.get());
    } catch (IncusException e) {
      if (!isNotFound(e)) {
        throw e;
      }
      return java.util.Optional.empty();
    }
  }

  static boolean isNotFound(IncusException e) {
    return kindOf(e) == Kind.NOT_FOUND;
  }
}
