package dev.agentcompute.capabilities.model;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** Timestamp formats: agent output is RFC 3339 UTC to the second, metadata keeps nanoseconds. */
public final class Timestamps {
  private Timestamps() {}

  /** {@code 2006-01-02T15:04:05Z}: what capabilities return. */
  public static String output(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  /** Full precision, for metadata stored in Incus. */
  public static String metadata(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant);
  }

  /**
   * Parses stored metadata. A missing or corrupt value yields {@link Instant#EPOCH}, which the
   * reaper treats as expired (docs/reference/capabilities.md#reaper): a sandbox whose deadline
   * cannot be read must not live forever.
   */
  public static Instant parseOrEpoch(String text) {
    if (text == null || text.isBlank()) {
      return Instant.EPOCH;
    }
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }
}
