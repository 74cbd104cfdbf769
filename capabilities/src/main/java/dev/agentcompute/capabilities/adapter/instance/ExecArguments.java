package dev.agentcompute.capabilities.adapter.instance;

import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.model.Errors;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Handler-level parsing of instance.exec arguments (docs/reference/capabilities.md#instanceexec),
 * kept apart so it is unit-tested.
 */
public final class ExecArguments {
  /** What a shell accepts as a variable name. */
  private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** A value that holds another {@code ,NAME=}: several variables written on one line. */
  private static final Pattern SECOND_VARIABLE =
      Pattern.compile(".*[,;]\\s*[A-Za-z_][A-Za-z0-9_]*=.*");

  /** The format, as every env refusal states it. */
  static final String FORMAT = "one KEY=VALUE per line, e.g. \"A=1\\nB=2\"";

  private ExecArguments() {}

  /** Empty for no deadline ({@code 0}). */
  public static Optional<Duration> timeout(long seconds) {
    if (seconds < 0) {
      throw Errors.of("timeout_seconds must be non-negative");
    }
    if (seconds > ComputeLimits.EXEC_TIMEOUT_MAX_SECONDS) {
      throw Errors.of("timeout_seconds is too large");
    }
    return seconds == 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
  }

  /**
   * Newline-separated {@code KEY=VALUE}; CRLF tolerated, blank lines skipped, split at the first
   * {@code =}.
   */
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
        throw Errors.of("env entry \"%s\" must be KEY=VALUE: env is %s", line, FORMAT);
      }
      String key = line.substring(0, eq);
      if (!VARIABLE_NAME.matcher(key).matches()) {
        throw Errors.of(
            "env key \"%s\" is not a variable name (letters, digits and _, not starting with a"
                + " digit)",
            key);
      }
      String value = line.substring(eq + 1);
      // Ours: the original set A to "1,B=2" for env="A=1,B=2", silently.
      if (SECOND_VARIABLE.matcher(value).matches()) {
        throw Errors.of(
            "env entry \"%s\" holds several variables on one line: env is %s", line, FORMAT);
      }
      env.put(key, value);
    }
    return env;
  }
}
