package dev.agentcompute.capabilities.model;

/**
 * A failure of the backend (Incus, later Lume); its message is logged, never shown to the agent.
 */
public final class BackendException extends ComputeException {
  /** What kind of backend failure this is, so callers can react (ignore not-found, retry, ...). */
  public enum Kind {
    NOT_FOUND,
    CONFLICT,
    UNAVAILABLE,
    FAILED
  }

  private final Kind kind;

  public BackendException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public BackendException(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }

  public boolean isNotFound() {
    return kind == Kind.NOT_FOUND;
  }
}
