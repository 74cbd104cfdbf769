package dev.agentcompute.capabilities.model;

/**
 * What a command produced; each stream keeps its first 64 KiB and says whether more was dropped.
 */
public record CommandResult(
    int exitCode,
    String stdout,
    String stderr,
    boolean stdoutTruncated,
    boolean stderrTruncated,
    boolean timedOut) {}
