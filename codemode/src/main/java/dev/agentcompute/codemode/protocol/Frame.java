package dev.agentcompute.codemode.protocol;

import java.util.List;
import java.util.Map;

/** The frames of protocol version 1. */
public sealed interface Frame {

  int VERSION = 1;

  /** P→C: probe request. */
  record Probe(long version) implements Frame {}

  /** C→P: probe answer, exactly 32 bytes. */
  record ProbeAck(long version) implements Frame {}

  /**
   * C→P, ours: the worker's first frame, written once its start and warm-up are over and before it
   * reads anything, so the host knows when a JVM stops competing for CPU as a starting one (28
   * bytes).
   */
  record Ready(long version) implements Frame {}

  /** Budgets the worker enforces itself. */
  record ExecLimits(
      long maxSourceBytes,
      long maxExecutionSteps,
      long maxNativeCalls,
      long maxValueDepth,
      long maxValueBytes) {}

  /**
   * P→C: run one program. {@code keepAlive} asks the worker to wait for another exec after its
   * terminal frame instead of exiting (worker reuse for one subject). {@code explain} asks for an
   * {@link FinalError#explanation()} on every failure the program causes (agent guidance).
   */
  record Exec(
      long version,
      String source,
      ExecLimits limits,
      List<Manifest.Item> manifest,
      boolean keepAlive,
      boolean explain)
      implements Frame {

    /** Without explanations, the original protocol. */
    public Exec(
        long version,
        String source,
        ExecLimits limits,
        List<Manifest.Item> manifest,
        boolean keepAlive) {
      this(version, source, limits, manifest, keepAlive, false);
    }
  }

  /** C→P: one capability call with bound canonical arguments. */
  record NativeCall(String capabilityId, Map<String, Object> arguments) implements Frame {}

  /** P→C: a successful result. */
  record NativeResult(Object result) implements Frame {}

  /** P→C: the call failed on the host; the worker unwinds without a final frame. */
  record NativeAbort(String detail) implements Frame {}

  /** C→P: main's converted value. */
  record Final(Object result) implements Frame {}

  /**
   * C→P: a worker-owned failure: invalid_program, invalid_arguments, resource_limit or internal.
   * {@code explanation}, sent only when the exec asked for one, says what to fix in the program;
   * null otherwise.
   */
  record FinalError(String code, String detail, String explanation) implements Frame {

    /** Without an explanation, the original protocol. */
    public FinalError(String code, String detail) {
      this(code, detail, null);
    }
  }
}
