package dev.agentcompute.incus;

/**
 * The outcome of an exec. Each stream keeps {@value #MAX_CAPTURE} bytes: when it is longer, its
 * first 16 KiB and its last 48 KiB around one marker line that says how many bytes were left out
 * (the rest is read and dropped), and the matching {@code truncated} flag is set. When {@code
 * timedOut} the command was killed at the deadline and {@code exitCode} is whatever the kill
 * produced (typically 137), or -1 if the server never reported one.
 */
public record ExecResult(
    int exitCode,
    byte[] stdout,
    byte[] stderr,
    boolean stdoutTruncated,
    boolean stderrTruncated,
    boolean timedOut) {

  public static final int MAX_CAPTURE = 65_536;

  public String stdoutText() {
    return new String(stdout, java.nio.charset.StandardCharsets.UTF_8);
  }

  public String stderrText() {
    return new String(stderr, java.nio.charset.StandardCharsets.UTF_8);
  }
}
