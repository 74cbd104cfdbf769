package dev.agentcompute.server.observe;

import dev.agentcompute.server.errors.UsageException;
import java.util.Locale;
import java.util.logging.Level;

/** The four levels operators choose from, mapped onto java.util.logging. */
public enum LogLevel {
  DEBUG(Level.FINE),
  INFO(Level.INFO),
  WARN(Level.WARNING),
  ERROR(Level.SEVERE);

  private final Level julLevel;

  LogLevel(Level julLevel) {
    this.julLevel = julLevel;
  }

  Level julLevel() {
    return julLevel;
  }

  public static LogLevel parse(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "debug" -> DEBUG;
      case "info" -> INFO;
      case "warn", "warning" -> WARN;
      case "error" -> ERROR;
      default ->
          throw new UsageException(
              "invalid log level \"" + value + "\": use debug, info, warn, or error");
    };
  }

  /** The name used in log lines and /health. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The operator-facing level of a JUL level. */
  static String labelOf(Level level) {
    int v = level.intValue();
    if (v >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (v >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (v >= Level.INFO.intValue()) {
      return "INFO";
    }
    return "DEBUG";
  }
}
