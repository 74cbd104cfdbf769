package dev.agentcompute.server.observe;

import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Routes every java.util.logging record (ours, Helidon's, the MCP SDK's and Apache HttpClient's
 * through slf4j-jdk14) to stderr in the chosen format. The level can change at runtime (config
 * reload).
 *
 * <p>The chosen level applies to our own loggers ({@value #OURS}) only. Every other logger is
 * capped at INFO: library debug output (HttpClient's wire log prints the body of every Incus call)
 * is noise to an operator and can carry request bodies. The cap is applied twice, as the root level
 * and as a filter on the one handler, so a library that sets its own logger's level still cannot
 * print below INFO. The audit logger ({@value AuditLog#LOGGER}) stays at INFO at every level.
 */
public final class Logging {
  /** The logger-name prefix of our own records. */
  static final String OURS = "dev.agentcompute";

  /** Held strongly: JUL forgets the level of a logger nobody references. */
  private static final Logger OUR_ROOT = Logger.getLogger(OURS);

  /** The audit trail is written whatever the log level: an operator's record, not diagnostics. */
  private static final Logger AUDIT = Logger.getLogger(AuditLog.LOGGER);

  private Logging() {}

  public static void configure(LogLevel level, LogFormat format, PrintStream stderr) {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    Handler handler =
        new StreamHandler(
            stderr, format == LogFormat.JSON ? LogFormats.json() : LogFormats.text()) {
          @Override
          public synchronized void publish(LogRecord record) {
            super.publish(record);
            flush();
          }
        };
    handler.setLevel(Level.ALL);
    handler.setFilter(Logging::admits);
    root.addHandler(handler);
    AUDIT.setLevel(Level.INFO);
    setLevel(level);
  }

  public static void setLevel(LogLevel level) {
    Level ours = level.julLevel();
    OUR_ROOT.setLevel(ours);
    Logger.getLogger("").setLevel(capped(ours));
  }

  /** Whether a record reaches the handler: ours at any level, a library's at INFO or above. */
  static boolean admits(LogRecord record) {
    return isOurs(record.getLoggerName()) || record.getLevel().intValue() >= Level.INFO.intValue();
  }

  static boolean isOurs(String loggerName) {
    return loggerName != null && (loggerName.equals(OURS) || loggerName.startsWith(OURS + "."));
  }

  private static Level capped(Level level) {
    return level.intValue() < Level.INFO.intValue() ? Level.INFO : level;
  }
}
