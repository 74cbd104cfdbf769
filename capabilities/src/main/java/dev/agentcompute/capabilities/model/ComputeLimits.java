package dev.agentcompute.capabilities.model;

import java.time.Duration;

/**
 * The compute capabilities' fixed bounds (docs/reference/capabilities.md#fixed-bounds), named once
 * so every rule reads alike.
 */
public final class ComputeLimits {
  /** Bytes of each exec output stream that are kept; the rest is drained and flagged. */
  public static final int EXEC_STREAM_BYTES = 65_536;

  /** The largest {@code timeout_seconds} (the original's int64-nanosecond overflow guard). */
  public static final long EXEC_TIMEOUT_MAX_SECONDS = 9_223_372_036L;

  /** {@code instance.file.read} without {@code max_bytes} (or with 0 or less). */
  public static final int FILE_READ_DEFAULT_BYTES = 65_536;

  /** The most {@code instance.file.read} returns, whatever {@code max_bytes} asks. */
  public static final int FILE_READ_MAX_BYTES = 1_048_576;

  /** The most {@code instance.file.write} accepts. */
  public static final int FILE_WRITE_MAX_BYTES = 65_536;

  /** The largest file mode: permissions plus setuid, setgid and sticky ({@code 7777}). */
  public static final long FILE_MODE_MAX = 07777;

  /**
   * Bounds of {@code instance.create}'s resources (docs/reference/capabilities.md#instancecreate):
   * positive, within reason.
   */
  public static final long CPUS_MAX = 256;

  public static final long MEMORY_MB_MIN = 16;
  public static final long MEMORY_MB_MAX = 1_048_576;
  public static final long DISK_GB_MAX = 65_536;

  /** The largest {@code ttl_minutes} (int64 nanoseconds of a Go duration). */
  public static final long TTL_MAX_MINUTES = 153_722_867L;

  /** TCP and UDP port bounds of forwards. */
  public static final int PORT_MIN = 1;

  public static final int PORT_MAX = 65_535;

  /** How often instance state is polled while waiting. */
  public static final Duration STATE_POLL = Duration.ofMillis(200);

  /** The whole budget of one instance creation: image import, boot and readiness. */
  public static final Duration CREATE_BUDGET = Duration.ofMinutes(10);

  /** How long a start, stop or restart may take. */
  public static final Duration STATE_CHANGE_BUDGET = Duration.ofMinutes(5);

  private ComputeLimits() {}
}
