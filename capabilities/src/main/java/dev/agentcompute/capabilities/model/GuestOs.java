package dev.agentcompute.capabilities.model;

import java.util.Locale;

/**
 * The guest families whose rules differ (exec wrapper, exec user, Driver user and paths), read from
 * an image's {@code os}: Windows when it starts with "windows" (case-insensitive,
 * docs/reference/capabilities.md#windows-guests), macOS for "macos", Linux-like for everything
 * else.
 */
public enum GuestOs {
  LINUX,
  MACOS,
  WINDOWS;

  public static GuestOs of(String os) {
    String lower = os == null ? "" : os.toLowerCase(Locale.ROOT);
    if (lower.startsWith("windows")) {
      return WINDOWS;
    }
    return lower.startsWith("macos") ? MACOS : LINUX;
  }
}
