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

  /**
   * A native call of {@code capability} (dotted name) reached the host and is about to run; {@code
   * completed} calls ended before it.
   */
  default void callStarted(String capability, long completed) {}

  /** A native call of {@code capability} (dotted name) completed; {@code completed} so far. */
  default void callCompleted(String capability, long completed) {}

  /**
   * The running call of {@code capability} reported a stage ({@link CapabilityCall#progress});
   * {@code completed} calls ended before it; {@code fraction} is done/total when it gave one.
   */
  default void stage(String capability, long completed, String message, OptionalDouble fraction) {}

  /** Tells both observers, {@code first} first; what one throws does not keep it from the other. */
  static ExecutionObserver both(ExecutionObserver first, ExecutionObserver second) {
    return new ExecutionObserver() {
      @Override
      public void callStarted(String capability, long completed) {
        each(o -> o.callStarted(capability, completed));
      }

      @Override
      public void callCompleted(String capability, long completed) {
        each(o -> o.callCompleted(capability, completed));
      }

      @Override
      public void stage(
          String capability, long completed, String message, OptionalDouble fraction) {
        each(o -> o.stage(capability, completed, message, fraction));
      }

      private void each(java.util.function.Consumer<ExecutionObserver> call) {
        for (ExecutionObserver o : new ExecutionObserver[] {first, second}) {
          try {
            call.accept(o);
          } catch (RuntimeException ignored) {
            // an observer never changes a result, nor keeps another from observing
          }
        }
      }
    };
  }
}
