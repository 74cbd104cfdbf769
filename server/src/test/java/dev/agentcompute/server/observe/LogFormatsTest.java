package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class LogFormatsTest {
  private static LogRecord record(String message, Object... attrs) {
    LogRecord r = new LogRecord(Level.INFO, message);
    r.setLoggerName("dev.agentcompute.server.X");
    r.setMillis(0);
    r.setParameters(new Object[] {new Log.Attributes(attrs)});
    return r;
  }

  @Test
  void textIsSlogShaped() {
    String line =
        LogFormats.text()
            .format(record("listening", "addr", "127.0.0.1:8080", "identities", "ci,alice"));
    assertThat(line)
        .isEqualTo(
            "time=1970-01-01T00:00:00.000Z level=INFO msg=listening"
                + " addr=127.0.0.1:8080 identities=ci,alice\n");
    assertThat(LogFormats.text().format(record("shutting down", "why", "a \"b\"")))
        .contains("msg=\"shutting down\" why=\"a \\\"b\\\"\"");
  }

  @Test
  void jsonIsOneObjectPerLine() {
    String line =
        LogFormats.json()
            .format(record("configuration applied", "digest", "sha256:abc", "count", 3));
    assertThat(line)
        .isEqualTo(
            "{\"time\":\"1970-01-01T00:00:00.000Z\",\"level\":\"INFO\","
                + "\"msg\":\"configuration applied\",\"digest\":\"sha256:abc\",\"count\":3}\n");
  }

  @Test
  void libraryRecordsKeepTheirLogger() {
    LogRecord r = new LogRecord(Level.WARNING, "port {0} busy");
    r.setLoggerName("io.helidon.webserver");
    r.setParameters(new Object[] {8080});
    r.setMillis(0);
    assertThat(LogFormats.text().format(r))
        .isEqualTo(
            "time=1970-01-01T00:00:00.000Z level=WARN msg=\"port 8,080 busy\""
                + " logger=io.helidon.webserver\n");
    assertThat(LogFormats.json().format(r)).contains("\"logger\":\"io.helidon.webserver\"");
  }
}
