package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Cancellation;
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
    if (e instanceof IncusException.TimedOut t && t.unanswered().isPresent()) {
      return new BackendException(
          Kind.UNAVAILABLE, e.getMessage(), e, unanswered(t.unanswered().get()));
    }
    return new BackendException(kindOf(e), e.getMessage(), e);
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

  static boolean isNotFound(IncusException e) {
    return kindOf(e) == Kind.NOT_FOUND;
  }
}
