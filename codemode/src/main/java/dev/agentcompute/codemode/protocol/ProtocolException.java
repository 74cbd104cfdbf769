package dev.agentcompute.codemode.protocol;

/** The peer broke the worker protocol (bad frame, bad value, illegal state). */
public final class ProtocolException extends Exception {
  public ProtocolException(String message) {
    super(message);
  }
}
