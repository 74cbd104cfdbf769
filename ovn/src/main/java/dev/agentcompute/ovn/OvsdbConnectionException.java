package dev.agentcompute.ovn;

/** The server could not be reached, the connection was lost, or it is not connected right now. */
public final class OvsdbConnectionException extends OvsdbException {
  OvsdbConnectionException(String message, Throwable cause) {
    super(message, cause);
  }

  OvsdbConnectionException(String message) {
    super(message, null);
  }
}
