package dev.agentcompute.capabilities.compute;

/** What a command produced; each stream keeps its first 64 KiB and says whether more was dropped. */
public record ExecResult(int exitCode, String stdout, String stderr, boolean stdoutTruncated,
    boolean stderrTruncated, boolean timedOut) {
  /** Bytes kept per stream (spec §6). */
  public static final int STREAM_LIMIT = 65_536;
}
