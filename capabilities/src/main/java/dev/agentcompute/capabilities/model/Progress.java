package dev.agentcompute.capabilities.model;

import java.util.function.Consumer;

/**
 * Where a capability's long waits report their stages ("waiting for web-1 to start"). The CodeMode
 * adapter binds a sink for the duration of one native call; the client sees the stages as MCP
 * progress notifications when it asked for progress. Outside a call (tests, the reaper) reporting
 * does nothing. Stages never change results.
 */
public final class Progress {
  private static final ScopedValue<Consumer<String>> SINK = ScopedValue.newInstance();

  private Progress() {}

  /** Reports one stage of the call the current thread is serving, if any. */
  public static void stage(String message) {
    if (SINK.isBound()) {
      SINK.get().accept(message);
    }
  }

  /**
   * The current call's sink, to report from threads of the call's own (a command's output arriving
   * on a socket thread); empty outside a call.
   */
  public static java.util.Optional<Consumer<String>> current() {
    return SINK.isBound() ? java.util.Optional.of(SINK.get()) : java.util.Optional.empty();
  }

  /** Runs {@code action} with {@code sink} receiving the stages it reports. */
  public static <T, X extends Throwable> T reportingTo(
      Consumer<String> sink, ScopedValue.CallableOp<T, X> action) throws X {
    return ScopedValue.where(SINK, sink).call(action);
  }
}
