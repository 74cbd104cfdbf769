package dev.agentcompute.lume;

/**
 * A failed Lume API call. The subclass says how the caller should treat it: a missing VM, a host
 * that is unreachable or overloaded, or any other refusal with Lume's own message.
 */
public sealed class LumeException extends Exception
    permits LumeException.NotFound, LumeException.Unavailable {

  private final int status;

  LumeException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status Lume answered with, or 0 when no answer arrived. */
  public int status() {
    return status;
  }

  /** The VM does not exist (404, or a message containing "not found" or "no such"). */
  public static final class NotFound extends LumeException {
    NotFound(String message, int status) {
      super(message, status, null);
    }
  }

  /** Lume could not be reached, or answered 502, 503 or 504. */
  public static final class Unavailable extends LumeException {
    Unavailable(String message, int status, Throwable cause) {
      super(message, status, cause);
    }
  }
}
