package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.NativeCallRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class AuditLogTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @AfterEach
  void reset() {
    LogManager.getLogManager().reset();
  }

  private static NativeCallRecord call(String executeId, String capability, Failure failure) {
    return new NativeCallRecord(
        Instant.now(),
        "alice",
        "id-" + capability,
        capability,
        failure,
        Duration.ofMillis(7),
        "sb-x",
        executeId);
  }

  @Test
  void textLinesNameTheAuditLoggerAndCarryOneTime() {
    Logging.configure(
        LogLevel.ERROR, LogFormat.TEXT, new PrintStream(out, true, StandardCharsets.UTF_8));
    ServerMetrics metrics = ServerMetrics.inMemory();
    try (AuditLog audit = new AuditLog(metrics)) {
      audit.nativeCall(call("ex-1", "instance.create", null));
    }
    String line = out.toString(StandardCharsets.UTF_8);
    assertThat(line)
        .startsWith("time=")
        .contains("msg=\"native call\" logger=agentcompute.audit execute_id=ex-1 subject=alice")
        .contains("capability=instance.create outcome=ok duration_ms=7 sandbox=sb-x");
    assertThat(line.split("time=", -1)).hasSize(2);
    assertThat(
            metrics.count(
                "agentcompute.native.calls", "capability", "instance.create", "outcome", "ok"))
        .isEqualTo(1);
  }

  @Test
  void jsonLinesHaveOneTimeKeyAndTheSameFieldNames() {
    Logging.configure(
        LogLevel.INFO, LogFormat.JSON, new PrintStream(out, true, StandardCharsets.UTF_8));
    try (AuditLog audit = new AuditLog(ServerMetrics.inMemory())) {
      audit.authenticationFailed("unknown", "127.0.0.1", "POST", "/mcp");
    }
    String line = out.toString(StandardCharsets.UTF_8).strip();
    assertThat(line)
        .startsWith("{\"time\":\"")
        .contains(
            "\"level\":\"INFO\",\"msg\":\"authentication failed\",\"logger\":\"agentcompute.audit\","
                + "\"reason\":\"unknown\",\"remote\":\"127.0.0.1\",\"method\":\"POST\",\"path\":\"/mcp\"");
    assertThat(line.split("\"time\"", -1)).hasSize(2);
  }

  @Test
  void anExecuteRecordCountsItsNativeCallsAndPinChangesHaveTheirOwn() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    List<AuditLog.Record> seen = new ArrayList<>();
    try (AuditLog audit =
        new AuditLog(
            ServerMetrics.inMemory(), java.util.Optional.of(AuditFile.open(file, 1 << 20, 3)))) {
      audit.subscribe(seen::add);
      audit.nativeCall(call("ex-2", "sandbox.pin", null));
      audit.pinChanged(
          "alice",
          new Sandbox(
              "sb-x",
              "incus",
              Instant.EPOCH,
              Instant.EPOCH,
              "bob",
              true,
              "alice",
              Instant.EPOCH,
              null,
              "m"),
          true);
      audit.nativeCall(call("ex-2", "instance.exec", Failure.CAPABILITY_FAILURE));
      audit.nativeCall(call("ex-3", "instance.exec", null));
      audit.execute(
          "ex-2", "alice", "s-1", "ab12", 40, "capability_failure", Duration.ofMillis(90));
    }
    assertThat(seen)
        .extracting(AuditLog.Record::event)
        .containsExactly("native call", "pin changed", "native call", "native call", "execute");
    AuditLog.Record execute = seen.getLast();
    assertThat(execute.get("native_calls")).contains(2);
    assertThat(execute.get("outcome")).contains("capability_failure");
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(5);
    assertThat(lines.get(1))
        .contains("\"msg\":\"pin changed\",\"logger\":\"agentcompute.audit\",\"subject\":\"alice\"")
        .contains("\"sandbox\":\"sb-x\",\"owner\":\"bob\"")
        .contains("\"pinned\":true");
    assertThat(lines.get(4))
        .contains("\"msg\":\"execute\",\"logger\":\"agentcompute.audit\",\"execute_id\":\"ex-2\"")
        .contains("\"source_sha256\":\"ab12\",\"source_bytes\":40")
        .contains("\"native_calls\":2");
  }

  @Test
  void theFileRotatesBySizeAndKeepsMaxFiles() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    try (AuditFile audit = AuditFile.open(file, 400, 3)) {
      for (int i = 0; i < 20; i++) {
        audit.append(
            new AuditLog.Record(Instant.now(), "execute", List.of("n", i, "pad", "x".repeat(100))));
      }
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("audit.jsonl", "audit.jsonl.1", "audit.jsonl.2");
    }
    assertThat(Files.size(file)).isLessThanOrEqualTo(400);
    assertThat(Files.readAllLines(file).getLast()).contains("\"n\":19");
    assertThat(Files.readAllLines(dir.resolve("audit.jsonl.1")).getLast())
        .contains("\"n\":" + (19 - Files.readAllLines(file).size()));
  }
}
