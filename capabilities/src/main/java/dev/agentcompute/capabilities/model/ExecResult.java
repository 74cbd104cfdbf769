package dev.agentcompute.capabilities.model;

/**
 * What a command produced, carried unchanged from the platform driver back to the agent: it is also
 * instance.exec's output record, so its components are named as the agent reads them
 * (docs/reference/exec-path.md). Each stream keeps its first 64 KiB and says whether more was
 * dropped; a command killed at its exec deadline has {@code timed_out} and exit code -1 (the
 * agent-visible value, not an "absent" marker).
 */
public record ExecResult(
    long exit_code,
    String stdout,
    String stderr,
    boolean stdout_truncated,
    boolean stderr_truncated,
    boolean timed_out) {

  /** The exit code a command killed at its exec deadline reports. */
  public static final long TIMED_OUT_EXIT_CODE = -1;
}
