package dev.agentcompute.incus;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * What incusd's file API says about one path: {@code type} ({@code file}, {@code directory}, {@code
 * symlink}), {@code size} in bytes (regular files; 0 for others), owner, mode bits, and when it was
 * last modified ({@code null} when not reported). Uid, gid and mode are -1 when not reported.
 */
public record FileStat(String type, long size, int uid, int gid, int mode, Instant modified) {

  /** Reads the X-Incus-* headers of a file answer; {@code size} comes from the caller. */
  static FileStat of(Transport.Response response, long size) {
    return new FileStat(
        response.header("X-Incus-Type") == null ? "file" : response.header("X-Incus-Type"),
        size,
        intHeader(response, "X-Incus-Uid", 10),
        intHeader(response, "X-Incus-Gid", 10),
        intHeader(response, "X-Incus-Mode", 8),
        modified(response.header("X-Incus-Modified")));
  }

  private static int intHeader(Transport.Response response, String name, int radix) {
    String value = response.header(name);
    try {
      return value == null ? -1 : Integer.parseInt(value.strip(), radix);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Go's {@code time.Time.String()}: {@code 2006-01-02 15:04:05.999999999 -0700 MST}; only the
   * first three fields matter (the zone name is redundant with the offset).
   */
  static Instant modified(String value) {
    if (value == null) {
      return null;
    }
    String[] parts = value.strip().split(" ");
    if (parts.length < 3 || parts[2].length() != 5) {
      return null;
    }
    String offset = parts[2].substring(0, 3) + ":" + parts[2].substring(3);
    try {
      return OffsetDateTime.parse(parts[0] + "T" + parts[1] + offset).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
