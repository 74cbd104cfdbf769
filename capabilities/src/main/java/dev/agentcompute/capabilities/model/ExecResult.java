package dev.agentcompute.capabilities.model;

import dev.agentcompute.codemode.OmitEmpty;
import java.util.Optional;

/**
 * What a command produced, carried unchanged from the platform driver back to the agent: it is also
 * instance.exec's output record, so its components are named as the agent reads them
 * (docs/reference/exec-path.md). Each stream keeps its first 64 KiB and says whether more was
 * dropped; a command killed at its exec deadline has {@code timed_out} and exit code -1 (the
 * agent-visible value, not an "absent" marker). A background start carries only {@code process},
 * the id instance.process.* take; a foreground result never has one, and the field is left out of
 * what the agent sees when it is empty.
 */
public record ExecResult(
    long exit_code,
    String stdout,
    String stderr,
    boolean stdout_truncated,
    boolean stderr_truncated,
    boolean timed_out,
    @OmitEmpty Optional<String> process) {

  /** A foreground command's result. */
  public ExecResult(
      long exit_code,
      String stdout,
      String stderr,
      boolean stdout_truncated,
      boolean stderr_truncated,
      boolean timed_out) {
    this(
        exit_code, stdout, stderr, stdout_truncated, stderr_truncated, timed_out, Optional.empty());
  }

  /** A background start's answer: only the process's id. */
  public static ExecResult started(String process) {
    return new ExecResult(0, "", "", false, false, false, Optional.of(process));
  }

  /** The exit code a command killed at its exec deadline reports. */
  public static final long TIMED_OUT_EXIT_CODE = -1;
}
