package dev.agentcompute.capabilities.model;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One background process as its supervisor recorded it (docs/capabilities.md#background-processes).
 * Absent values are empty optionals: a running process has no exit code, end or signal.
 *
 * @param command the command's first 300 characters, newlines as spaces
 * @param signal the signal that ended it (when {@link ProcessEnd#KILLED} or OOM-killed)
 * @param killedWith the signal instance.process.kill sent, if any
 * @param stdoutBytes bytes of stdout kept so far (at most the per-stream cap)
 */
public record ProcessInfo(
    String id,
    String command,
    boolean running,
    OptionalInt exitCode,
    Optional<ProcessEnd> end,
    OptionalInt signal,
    Optional<String> killedWith,
    Optional<Instant> startedAt,
    Optional<Instant> endedAt,
    long stdoutBytes,
    long stderrBytes) {}
