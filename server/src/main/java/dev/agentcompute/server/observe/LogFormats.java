package dev.agentcompute.server.observe;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * The two log line formats, both one line per event on stderr, shaped like Go's slog: {@code time=…
 * level=INFO msg=listening addr=localhost:8080} or the same as a JSON object. Records from
 * libraries (Helidon, the MCP SDK) have no attributes and show their logger.
 */
final class LogFormats {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private LogFormats() {}

  static Formatter text() {
    return new Formatter() {
      @Override
      public String format(LogRecord r) {
        StringBuilder line = new StringBuilder();
        Log.Attributes attrs = attributes(r);
        line.append("time=")
            .append(TIME.format(time(r, attrs)))
            .append(" level=")
            .append(LogLevel.labelOf(r.getLevel()))
            .append(" msg=")
            .append(textValue(message(this, r)));
        if (showsLogger(r, attrs)) {
          line.append(" logger=").append(textValue(r.getLoggerName()));
        }
        if (attrs != null) {
          Object[] p = attrs.pairs();
          for (int i = 0; i < p.length; i += 2) {
            line.append(' ').append(p[i]).append('=').append(textValue(String.valueOf(p[i + 1])));
          }
        }
        Throwable thrown = thrown(r, attrs);
        if (thrown != null) {
          line.append(" err=").append(textValue(String.valueOf(thrown)));
        }
        return line.append('\n').toString();
      }
    };
  }

  static Formatter json() {
    return new Formatter() {
      @Override
      public String format(LogRecord r) {
        StringBuilder line = new StringBuilder("{");
        Log.Attributes attrs = attributes(r);
        field(line, "time", TIME.format(time(r, attrs)));
        field(line, "level", LogLevel.labelOf(r.getLevel()));
        field(line, "msg", message(this, r));
        if (showsLogger(r, attrs)) {
          field(line, "logger", r.getLoggerName());
        }
        if (attrs != null) {
          Object[] p = attrs.pairs();
          for (int i = 0; i < p.length; i += 2) {
            Object v = p[i + 1];
            if (v instanceof Number || v instanceof Boolean) {
              line.append(',').append(jsonString(String.valueOf(p[i]))).append(':').append(v);
            } else {
              field(line, String.valueOf(p[i]), String.valueOf(v));
            }
          }
        }
        Throwable thrown = thrown(r, attrs);
        if (thrown != null) {
          field(line, "err", String.valueOf(thrown));
          field(line, "stack", stack(thrown));
        }
        return line.append("}\n").toString();
      }
    };
  }

  /**
   * Library records and the audit trail ({@value AuditLog#LOGGER}, outside our logger tree) name
   * their logger, so an operator can select them; our diagnostic records do not need to.
   */
  private static boolean showsLogger(LogRecord r, Log.Attributes attrs) {
    return attrs == null || !Logging.isOurs(r.getLoggerName());
  }

  private static Instant time(LogRecord r, Log.Attributes attrs) {
    return attrs != null && attrs.time() != null ? attrs.time() : r.getInstant();
  }

  private static Log.Attributes attributes(LogRecord r) {
    Object[] params = r.getParameters();
    return params != null && params.length == 1 && params[0] instanceof Log.Attributes a ? a : null;
  }

  /** A library's thrown, or the failure our records carry with their attributes. */
  private static Throwable thrown(LogRecord r, Log.Attributes attrs) {
    if (r.getThrown() != null) {
      return r.getThrown();
    }
    return attrs == null ? null : attrs.failure();
  }

  private static String message(Formatter f, LogRecord r) {
    return attributes(r) != null ? r.getMessage() : f.formatMessage(r);
  }

  private static void field(StringBuilder line, String key, String value) {
    if (line.length() > 1) {
      line.append(',');
    }
    line.append(jsonString(key)).append(':').append(jsonString(value == null ? "" : value));
  }

  /** Quotes a text value when it has spaces, quotes, '=' or control characters. */
  static String textValue(String value) {
    if (value == null) {
      return "\"\"";
    }
    boolean plain =
        !value.isEmpty()
            && value.chars().allMatch(c -> c > ' ' && c != '"' && c != '=' && c != 0x7f);
    return plain ? value : jsonString(value);
  }

  static String jsonString(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static String stack(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }
}
