package dev.agentcompute.server.errors;

/** A dependency (listener, Incus, catalogue, CodeMode) could not be started. */
public final class StartupException extends ServerException {
  public StartupException(String message) {
    super(message);
  }

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
