package dev.agentcompute.server;

/** A dependency (listener, Incus, catalogue, CodeMode) could not be started. */
public final class StartupException extends ServerException {
  StartupException(String message) {
    super(message);
  }

  StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
