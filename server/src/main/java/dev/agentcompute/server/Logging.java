package dev.agentcompute.server;

import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Routes every java.util.logging record (ours, Helidon's, and the MCP SDK's through
 * slf4j-jdk14) to stderr in the chosen format. The level can change at runtime (config reload).
 */
final class Logging {
  /** Held strongly: JUL forgets the level of a logger nobody references. */
  private static final java.util.List<Logger> LIBRARIES = java.util.List.of(
      Logger.getLogger("io.helidon"), Logger.getLogger("io.modelcontextprotocol"),
      Logger.getLogger("reactor"));

  private Logging() {}

  static void configure(LogLevel level, CliArgs.LogFormat format, PrintStream stderr) {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    Handler handler = new StreamHandler(stderr, format == CliArgs.LogFormat.JSON
        ? LogFormats.json() : LogFormats.text()) {
      @Override
      public synchronized void publish(java.util.logging.LogRecord record) {
        super.publish(record);
        flush();
      }
    };
    handler.setLevel(Level.ALL);
    root.addHandler(handler);
    setLevel(level);
  }

  static void setLevel(LogLevel level) {
    Logger.getLogger("").setLevel(level.julLevel());
    // Library chatter below INFO is noise even in debug mode; keep it at INFO at most.
    Level libraries = level.julLevel().intValue() < Level.INFO.intValue() ? Level.INFO
        : level.julLevel();
    LIBRARIES.forEach(logger -> logger.setLevel(libraries));
  }
}
