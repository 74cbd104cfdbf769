package dev.agentcompute.server.observe;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Structured log events on the platform logging API ({@link System.Logger}, which every module logs
 * through; {@link Logging} routes it to stderr): a short message plus key/value attributes, which
 * the text formatter renders as {@code key=value} and the JSON formatter as fields. Never pass a
 * token or other secret as a value.
 */
public final class Log {
  private final Logger logger;

  private Log(Logger logger) {
    this.logger = logger;
  }

  public static Log of(Class<?> owner) {
    return new Log(System.getLogger(owner.getName()));
  }

  public void debug(String message, Object... attrs) {
    log(Level.DEBUG, message, null, attrs);
  }

  public void info(String message, Object... attrs) {
    log(Level.INFO, message, null, attrs);
  }

  public void warn(String message, Object... attrs) {
    log(Level.WARNING, message, null, attrs);
  }

  public void error(String message, Object... attrs) {
    log(Level.ERROR, message, null, attrs);
  }

  public void error(String message, Throwable failure, Object... attrs) {
    log(Level.ERROR, message, failure, attrs);
  }

  private void log(Level level, String message, Throwable failure, Object... attrs) {
    if (!logger.isLoggable(level)) {
      return;
    }
    // The attributes travel as the record's single parameter; the formatters render them.
    logger.log(level, (java.util.ResourceBundle) null, message, new Attributes(attrs, failure));
  }

  /**
   * Alternating keys and values, the failure being reported, if any, and the event's own time when
   * it is not the time of logging (null): an audit record's line and file entry show one time.
   */
  public record Attributes(Object[] pairs, Throwable failure, java.time.Instant time) {
    public Attributes {
      if (pairs.length % 2 != 0) {
        throw new IllegalArgumentException("log attributes come in key/value pairs");
      }
    }

    public Attributes(Object[] pairs, Throwable failure) {
      this(pairs, failure, null);
    }

    /** Attributes without a failure. */
    public Attributes(Object[] pairs) {
      this(pairs, null, null);
    }
  }
}
