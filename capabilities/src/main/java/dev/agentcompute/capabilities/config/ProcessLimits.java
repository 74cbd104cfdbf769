package dev.agentcompute.capabilities.config;

/**
 * What background processes may take in one instance (docs/capabilities.md#background-processes).
 * Their output lives in the instance's {@code /run}, often memory, so both are bounded.
 *
 * @param perInstance {@code instance.background_processes}: processes running at once in one
 *     instance; the next start is refused
 * @param outputMb {@code instance.background_output_mb}: MiB each of a process's stdout and stderr
 *     keeps; the rest is read and dropped, so the process never blocks on it
 */
public record ProcessLimits(int perInstance, int outputMb) {
  /** The largest {@code instance.background_processes}. */
  public static final int PER_INSTANCE_MAX = 1000;

  /** The largest {@code instance.background_output_mb}. */
  public static final int OUTPUT_MB_MAX = 1024;

  public ProcessLimits {
    if (perInstance < 1 || perInstance > PER_INSTANCE_MAX) {
      throw new IllegalArgumentException(
          "instance.background_processes must be between 1 and "
              + PER_INSTANCE_MAX
              + ", got "
              + perInstance);
    }
    if (outputMb < 1 || outputMb > OUTPUT_MB_MAX) {
      throw new IllegalArgumentException(
          "instance.background_output_mb must be between 1 and "
              + OUTPUT_MB_MAX
              + ", got "
              + outputMb);
    }
  }

  /** 8 processes per instance, 16 MiB per stream. */
  public static ProcessLimits defaults() {
    return new ProcessLimits(8, 16);
  }

  public long outputBytes() {
    return (long) outputMb << 20;
  }
}
