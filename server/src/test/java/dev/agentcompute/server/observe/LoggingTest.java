package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chosen level applies to our loggers; every library logger is capped at INFO. */
class LoggingTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** Held strongly so JUL keeps the level a test sets on it. */
  private final Logger wire = Logger.getLogger("org.apache.hc.client5.http.wire");

  @BeforeEach
  void configure() {
    Logging.configure(
        LogLevel.DEBUG, LogFormat.TEXT, new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void reset() {
    LogManager.getLogManager().reset();
  }

  private String lines() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void debugLevelEmitsOurDebugRecords() {
    new IncusCallMetrics(ServerMetrics.inMemory()).onCall("GET", "/1.0/projects", 200, 3_000_000);

    assertThat(lines())
        .contains("level=DEBUG msg=\"incus call\" method=GET path=/1.0/projects status=200")
        .contains("duration_ms=3");
  }

  @Test
  void debugLevelDropsHttpClientWireRecords() {
    wire.fine("http-outgoing-0 >> \"GET /1.0/projects HTTP/1.1[\\r][\\n]\"");
    Logger.getLogger("org.apache.hc.client5.http.impl.classic.InternalHttpClient").fine("exec");

    assertThat(lines()).doesNotContain("org.apache.hc");
  }

  @Test
  void aLibraryThatLowersItsOwnLevelStillCannotPrintBelowInfo() {
    wire.setLevel(Level.ALL);
    wire.finest("body");
    wire.info("a library's info record");

    assertThat(lines()).doesNotContain("body").contains("a library's info record");
  }

  @Test
  void ourErrorRecordsCarryTheirAttributesAndFailure() {
    Log.of(LoggingTest.class).error("boom", new IllegalStateException("why"), "op", "x");

    assertThat(lines())
        .contains("level=ERROR msg=boom op=x")
        .contains("err=\"java.lang.IllegalStateException: why\"");
  }

  @Test
  void infoLevelHidesOurDebugRecords() {
    Logging.setLevel(LogLevel.INFO);
    new IncusCallMetrics(ServerMetrics.inMemory()).onCall("GET", "/1.0", 200, 1);

    assertThat(lines()).doesNotContain("incus call");
  }

  @Test
  void warnLevelAppliesToLibrariesToo() {
    Logging.setLevel(LogLevel.WARN);
    Logger.getLogger("io.helidon.webserver").info("started");

    assertThat(lines()).doesNotContain("started");
  }
}
