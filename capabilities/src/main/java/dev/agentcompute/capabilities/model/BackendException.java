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
  private final String agentText;

  public BackendException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, null);
  }

  /**
   * With {@code agentText}: what the agent may be told instead of a bare {@code capability failed}
   * (a fixed sentence without backend internals, e.g. that Incus did not answer in time).
   */
  public BackendException(Kind kind, String message, Throwable cause, String agentText) {
    super(message, cause);
    this.kind = kind;
    this.agentText = agentText;
  }

  /** The safe sentence for the agent, when this failure has one. */
  public java.util.Optional<String> agentText() {
    return java.util.Optional.ofNullable(agentText);
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
