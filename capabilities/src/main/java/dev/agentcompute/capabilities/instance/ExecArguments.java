package dev.agentcompute.capabilities.instance;

import dev.agentcompute.capabilities.compute.Errors;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Handler-level parsing of instance.exec arguments (spec §2.3), kept apart so it is unit-tested. */
public final class ExecArguments {
  static final long MAX_TIMEOUT_SECONDS = 9_223_372_036L;

  private ExecArguments() {}

  /** {@code null} for no exec deadline. */
  public static Duration timeout(long seconds) {
    if (seconds < 0) {
      throw Errors.of("timeout_seconds must be non-negative");
    }
    if (seconds > MAX_TIMEOUT_SECONDS) {
      throw Errors.of("timeout_seconds is too large");
    }
    return seconds == 0 ? null : Duration.ofSeconds(seconds);
  }

  /** Newline-separated {@code KEY=VALUE}; CRLF tolerated, blank lines skipped, split at the first {@code =}. */
  public static Map<String, String> env(String text) {
    Map<String, String> env = new LinkedHashMap<>();
    if (text == null) {
      return env;
    }
    for (String raw : text.split("\n", -1)) {
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.isBlank()) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw Errors.of("env entry \"%s\" must be KEY=VALUE", line);
      }
      env.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return env;
  }

  /** {@code ""} or {@code root} mean root; otherwise a decimal uint32. Returns -1 for the default. */
  public static int user(String user) {
    if (user == null || user.isEmpty()) {
      return -1;
    }
    if (user.equals("root")) {
      return 0;
    }
    if (!user.chars().allMatch(Character::isDigit) || user.length() > 10 || Long.parseLong(user) > 0xFFFFFFFFL) {
      throw Errors.of("user must be a numeric UID");
    }
    return (int) Long.parseLong(user);
  }
}
