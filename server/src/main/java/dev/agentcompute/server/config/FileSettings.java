package dev.agentcompute.server.config;

import dev.agentcompute.capabilities.files.TransferLimits;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Validates the {@code files} section: file transfer URLs. Every key is optional; the bounds keep a
 * typo from disabling a limit.
 */
final class FileSettings {
  static final long MAX_UPLOAD_BYTES = 1L << 40;
  static final long MAX_URL_TTL_SECONDS = 86_400;
  static final long MAX_URLS_PER_IDENTITY = 10_000;
  static final long MAX_TRANSFER_TIMEOUT_SECONDS = 86_400;

  private FileSettings() {}

  static ServerConfig.Files load(RuntimeConfig.Files raw, List<String> problems) {
    RuntimeConfig.Files f =
        raw != null ? raw : new RuntimeConfig.Files(null, null, null, null, null);
    Optional<URI> baseUrl =
        f.baseUrl() == null || f.baseUrl().isBlank()
            ? Optional.empty()
            : baseUrl(f.baseUrl(), problems);
    long maxUpload =
        bounded(
            "files.max_upload_bytes",
            f.maxUploadBytes(),
            TransferLimits.DEFAULT_MAX_UPLOAD_BYTES,
            MAX_UPLOAD_BYTES,
            problems);
    long ttl =
        bounded(
            "files.url_ttl_seconds",
            f.urlTtlSeconds(),
            TransferLimits.DEFAULT_URL_TTL.toSeconds(),
            MAX_URL_TTL_SECONDS,
            problems);
    long perIdentity =
        bounded(
            "files.max_urls_per_identity",
            f.maxUrlsPerIdentity(),
            TransferLimits.DEFAULT_MAX_URLS_PER_IDENTITY,
            MAX_URLS_PER_IDENTITY,
            problems);
    long transfer =
        bounded(
            "files.transfer_timeout_seconds",
            f.transferTimeoutSeconds(),
            TransferLimits.DEFAULT_TRANSFER_TIMEOUT.toSeconds(),
            MAX_TRANSFER_TIMEOUT_SECONDS,
            problems);
    return new ServerConfig.Files(
        baseUrl,
        new TransferLimits(
            maxUpload, Duration.ofSeconds(ttl), (int) perIdentity, Duration.ofSeconds(transfer)));
  }

  private static Optional<URI> baseUrl(String value, List<String> problems) {
    String rule =
        "files.base_url must be an absolute http or https URL without userinfo, query, or"
            + " fragment, got \""
            + value
            + "\"";
    try {
      URI uri = new URI(value);
      boolean httpScheme = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
      if (httpScheme
          && uri.getHost() != null
          && uri.getRawUserInfo() == null
          && uri.getRawQuery() == null
          && uri.getRawFragment() == null) {
        return Optional.of(uri);
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    problems.add(rule);
    return Optional.empty();
  }

  /** {@code value} or the default; out of 1..max is a problem (and the default is used). */
  private static long bounded(
      String key, Long value, long defaultValue, long max, List<String> problems) {
    if (value == null) {
      return defaultValue;
    }
    if (value < 1 || value > max) {
      problems.add(key + " must be between 1 and " + max + ", got " + value);
      return defaultValue;
    }
    return value;
  }
}
