package dev.agentcompute.incus;

/**
 * Every failure of an Incus call. The subtype says what kind of failure it was; the message carries
 * the server's own error text (or the local cause) and names the request that failed.
 */
public abstract sealed class IncusException extends RuntimeException {

  private final int status;

  IncusException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** HTTP status (or Incus {@code error_code}) of the failure; 0 when the server never answered. */
  public int status() {
    return status;
  }

  /** 404: the object does not exist. */
  public static final class NotFound extends IncusException {
    NotFound(String message) {
      super(404, message, null);
    }
  }

  /** 409: the object already exists, or the request conflicts with its state. */
  public static final class Conflict extends IncusException {
    Conflict(String message) {
      super(409, message, null);
    }
  }

  /** 412: the ETag sent in If-Match no longer matches (somebody else changed the object). */
  public static final class PreconditionFailed extends IncusException {
    PreconditionFailed(String message) {
      super(412, message, null);
    }
  }

  /** 403 (or 401): the identity may not do this. */
  public static final class Forbidden extends IncusException {
    Forbidden(int status, String message) {
      super(status, message, null);
    }
  }

  /** 502/503/504, or the daemon could not be reached at all (refused, reset, socket missing). */
  public static final class Unavailable extends IncusException {
    Unavailable(int status, String message, Throwable cause) {
      super(status, message, cause);
    }
  }

  /** The caller cancelled the call (interrupted its thread). */
  public static final class Cancelled extends IncusException {
    Cancelled(String message) {
      super(0, message, null);
    }
  }

  /** The call's own deadline passed before the server answered or the operation finished. */
  public static final class TimedOut extends IncusException {
    private final java.time.Duration unanswered;

    TimedOut(String message) {
      this(message, null);
    }

    /** Incus sent no answer at all within {@code unanswered} (not a slow operation). */
    TimedOut(String message, java.time.Duration unanswered) {
      super(0, message, null);
      this.unanswered = unanswered;
    }

    /** How long Incus stayed silent, when the request got no answer at all. */
    public java.util.Optional<java.time.Duration> unanswered() {
      return java.util.Optional.ofNullable(unanswered);
    }
  }

  /** Anything else the server rejected or that failed (including failed background operations). */
  public static final class Failed extends IncusException {
    Failed(int status, String message, Throwable cause) {
      super(status, message, cause);
    }
  }
}
