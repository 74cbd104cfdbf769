package dev.agentcompute.ovn;

/** A request got no answer within its timeout (the request is cancelled locally). */
public final class OvsdbTimeoutException extends OvsdbException {
  OvsdbTimeoutException(String message) {
    super(message, null);
  }
}
