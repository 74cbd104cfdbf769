package dev.agentcompute.capabilities.files;

import java.time.Duration;

/**
 * The bounds of file transfer URLs (docs/configuration.md, {@code files.*}): the largest upload,
 * how long a URL lives, how many unused URLs one identity may hold, and how long one transfer may
 * take once started. Every refusal by one of them names its key and value.
 */
public record TransferLimits(
    long maxUploadBytes, Duration urlTtl, int maxUrlsPerIdentity, Duration transferTimeout) {

  public static final long DEFAULT_MAX_UPLOAD_BYTES = 4L * 1024 * 1024 * 1024;
  public static final Duration DEFAULT_URL_TTL = Duration.ofMinutes(5);
  public static final int DEFAULT_MAX_URLS_PER_IDENTITY = 16;
  public static final Duration DEFAULT_TRANSFER_TIMEOUT = Duration.ofHours(1);

  public static TransferLimits defaults() {
    return new TransferLimits(
        DEFAULT_MAX_UPLOAD_BYTES,
        DEFAULT_URL_TTL,
        DEFAULT_MAX_URLS_PER_IDENTITY,
        DEFAULT_TRANSFER_TIMEOUT);
  }
}
