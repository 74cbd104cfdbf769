package dev.agentcompute.incus;

/**
 * Sees a command's output as it arrives, besides the bounded capture in {@link ExecResult} (which
 * it does not change): for showing a long command's progress. Called on the websockets' threads,
 * one call at a time per stream; it must return quickly and never throw.
 */
public interface ExecOutputListener {
  /** Bytes the command wrote to stdout ({@code stderr} false) or stderr; {@code data} is a copy. */
  void output(boolean stderr, byte[] data);
}
