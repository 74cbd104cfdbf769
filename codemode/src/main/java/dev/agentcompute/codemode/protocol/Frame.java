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

  /** Budgets the worker enforces itself. */
  record ExecLimits(
      long maxSourceBytes,
      long maxExecutionSteps,
      long maxNativeCalls,
      long maxValueDepth,
      long maxValueBytes) {}

  /**
   * P→C: run one program. {@code keepAlive} asks the worker to wait for another exec after its
   * terminal frame instead of exiting (worker reuse for one subject).
   */
  record Exec(
      long version,
      String source,
      ExecLimits limits,
      List<Manifest.Item> manifest,
      boolean keepAlive)
      implements Frame {}

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
   */
  record FinalError(String code, String detail) implements Frame {}
}
