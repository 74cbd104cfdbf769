package dev.agentcompute.server.admin;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An extension's length as operators type it: {@code 90m}, {@code 2h}, {@code 1h30m} or minutes.
 */
final class TtlText {
  private static final Pattern FORM = Pattern.compile("(?:(\\d{1,6})h)?(?:(\\d{1,7})m?)?");

  private TtlText() {}

  /** Whole minutes, at least one. */
  static long minutes(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    Matcher m = FORM.matcher(t);
    if (t.isEmpty() || !m.matches() || (m.group(1) == null && m.group(2) == null)) {
      throw new AdminException(
          400, "duration \"" + text + "\" is not a duration: write 90m, 2h, 1h30m or minutes");
    }
    long minutes =
        (m.group(1) == null ? 0 : Long.parseLong(m.group(1)) * 60)
            + (m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
    if (minutes < 1) {
      throw new AdminException(400, "duration \"" + text + "\" must be at least one minute");
    }
    return minutes;
  }
}
