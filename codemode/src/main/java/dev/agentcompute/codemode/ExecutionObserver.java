package dev.agentcompute.codemode;

import java.util.OptionalDouble;

/**
 * Follows one execution as it runs, without changing its result: the MCP adapter turns it into
 * progress notifications. Called on CodeMode's threads, possibly from a handler's thread; keep it
 * short and thread-safe. What it throws is ignored.
 */
public interface ExecutionObserver {

  /** Observes nothing. */
  ExecutionObserver NONE = new ExecutionObserver() {};

  /** A native call of {@code capability} (dotted name) completed; {@code completed} so far. */
  default void callCompleted(String capability, long completed) {}

  /**
   * The running call of {@code capability} reported a stage ({@link CapabilityCall#progress});
   * {@code completed} calls ended before it; {@code fraction} is done/total when it gave one.
   */
  default void stage(String capability, long completed, String message, OptionalDouble fraction) {}
}
