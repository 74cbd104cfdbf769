package dev.agentcompute.capabilities.model;

import java.time.Duration;
import java.util.concurrent.CancellationException;

/**
 * A cancelled caller, as the CodeMode adapter reports it: every interrupted wait (the gate, a poll,
 * an Incus call) ends in the same {@link CancellationException} with Go's {@code context canceled}
 * text, and leaves the interrupt flag set.
 */
public final class Cancellation {
  private Cancellation() {}

  /** The exception of a cancelled call, with what stopped it as the cause. */
  public static CancellationException canceled(Throwable cause) {
    CancellationException cancelled = new CancellationException("context canceled");
    if (cause != null) {
      cancelled.initCause(cause);
    }
    return cancelled;
  }

  /** Sleeps between polls; an interrupt is the caller's cancellation. */
  public static void sleep(Duration pause) {
    try {
      Thread.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw canceled(e);
    }
  }
}
