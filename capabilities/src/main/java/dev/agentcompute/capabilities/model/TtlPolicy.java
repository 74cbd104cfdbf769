package dev.agentcompute.capabilities.model;

import java.time.Duration;

/**
 * TTL arithmetic: the default applies when none is given, the maximum caps every request. The
 * handler bound ({@value ComputeLimits#TTL_MAX_MINUTES} minutes) is the original's int64-nanosecond
 * overflow guard.
 */
public record TtlPolicy(Duration defaultTtl, Duration maxTtl) {
  public TtlPolicy {
    if (defaultTtl.isNegative()
        || defaultTtl.isZero()
        || maxTtl.compareTo(defaultTtl) < 0
        || maxTtl.toMinutes() > ComputeLimits.TTL_MAX_MINUTES) {
      throw new IllegalArgumentException(
          "sandbox TTL minutes must be positive, representable durations with default <= maximum");
    }
  }

  /** The handler-level check of a {@code ttl_minutes} argument that was given. */
  public static long checkArgument(long ttlMinutes) {
    if (ttlMinutes < 1) {
      throw Errors.of("ttl_minutes must be positive");
    }
    if (ttlMinutes > ComputeLimits.TTL_MAX_MINUTES) {
      throw Errors.of("ttl_minutes is too large");
    }
    return ttlMinutes;
  }

  /**
   * Resolves a requested TTL in minutes; 0 selects the default, more than the maximum is refused.
   */
  public Duration resolve(long ttlMinutes) {
    if (ttlMinutes == 0) {
      return defaultTtl;
    }
    Duration requested = Duration.ofMinutes(ttlMinutes);
    if (requested.compareTo(maxTtl) > 0) {
      throw Errors.ttlExceedsMaximum(maxTtl);
    }
    return requested;
  }
}
