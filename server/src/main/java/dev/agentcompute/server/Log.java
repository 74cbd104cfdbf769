package dev.agentcompute.server;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Structured log events on java.util.logging: a short message plus key/value attributes, which
 * the text formatter renders as {@code key=value} and the JSON formatter as fields. Never pass
 * a token or other secret as a value.
 */
final class Log {
  private final Logger logger;

  private Log(Logger logger) {
    this.logger = logger;
  }

  static Log of(Class<?> owner) {
    return new Log(Logger.getLogger(owner.getName()));
  }

  void debug(String message, Object... attrs) {
    log(Level.FINE, message, null, attrs);
  }

  void info(String message, Object... attrs) {
    log(Level.INFO, message, null, attrs);
  }

  void warn(String message, Object... attrs) {
    log(Level.WARNING, message, null, attrs);
  }

  void error(String message, Object... attrs) {
    log(Level.SEVERE, message, null, attrs);
  }

  void error(String message, Throwable failure, Object... attrs) {
    log(Level.SEVERE, message, failure, attrs);
  }

  private void log(Level level, String message, Throwable failure, Object... attrs) {
    if (!logger.isLoggable(level)) {
      return;
    }
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName(logger.getName());
    record.setParameters(new Object[] {new Attributes(attrs)});
    record.setThrown(failure);
    logger.log(record);
  }

  /** Alternating keys and values, carried as the record's single parameter. */
  record Attributes(Object[] pairs) {
    Attributes {
      if (pairs.length % 2 != 0) {
        throw new IllegalArgumentException("log attributes come in key/value pairs");
      }
    }
  }
}
