package dev.agentcompute.server.config;

import java.time.Duration;
import java.util.List;

/**
 * Validates the {@code http} section: the front door's caps. Every key is optional; the defaults
 * suit a small host (the bounds keep a typo from disabling a cap: a cap of a billion is none).
 */
final class HttpSettings {
  static final long DEFAULT_MAX_SESSIONS = 256;
  static final long DEFAULT_MAX_SESSIONS_PER_IDENTITY = 32;
  static final long DEFAULT_MAX_CONNECTIONS = 512;
  static final long DEFAULT_MAX_CONCURRENT_REQUESTS = 64;
  static final long DEFAULT_HEADER_TIMEOUT_SECONDS = 10;
  static final long MAX_CAP = 100_000;
  static final long MAX_HEADER_TIMEOUT_SECONDS = 300;
  // The execute limit (15 minutes): an execute started just before SIGTERM can finish. The unit's
  // TimeoutStopSec (16 min) leaves a minute for the rest of the shutdown.
  static final long DEFAULT_DRAIN_TIMEOUT_SECONDS = 900;
  static final long MAX_DRAIN_TIMEOUT_SECONDS = 3600;

  private HttpSettings() {}

  static ServerConfig.Http load(RuntimeConfig.Http raw, List<String> problems) {
    RuntimeConfig.Http h =
        raw != null ? raw : new RuntimeConfig.Http(null, null, null, null, null, null);
    long sessions =
        bounded("http.max_sessions", h.maxSessions(), DEFAULT_MAX_SESSIONS, MAX_CAP, problems);
    long perIdentity =
        bounded(
            "http.max_sessions_per_identity",
            h.maxSessionsPerIdentity(),
            DEFAULT_MAX_SESSIONS_PER_IDENTITY,
            MAX_CAP,
            problems);
    if (perIdentity > sessions) {
      problems.add(
          "http.max_sessions_per_identity ("
              + perIdentity
              + ") must not exceed http.max_sessions ("
              + sessions
              + ")");
    }
    long connections =
        bounded(
            "http.max_connections", h.maxConnections(), DEFAULT_MAX_CONNECTIONS, MAX_CAP, problems);
    long requests =
        bounded(
            "http.max_concurrent_requests",
            h.maxConcurrentRequests(),
            DEFAULT_MAX_CONCURRENT_REQUESTS,
            MAX_CAP,
            problems);
    long headerTimeout =
        bounded(
            "http.header_timeout_seconds",
            h.headerTimeoutSeconds(),
            DEFAULT_HEADER_TIMEOUT_SECONDS,
            MAX_HEADER_TIMEOUT_SECONDS,
            problems);
    long drainTimeout =
        bounded(
            "http.drain_timeout_seconds",
            h.drainTimeoutSeconds(),
            DEFAULT_DRAIN_TIMEOUT_SECONDS,
            MAX_DRAIN_TIMEOUT_SECONDS,
            problems);
    return new ServerConfig.Http(
        (int) sessions,
        (int) perIdentity,
        (int) connections,
        (int) requests,
        Duration.ofSeconds(headerTimeout),
        Duration.ofSeconds(drainTimeout));
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
