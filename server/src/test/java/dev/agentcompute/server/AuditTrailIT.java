package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit trail (docs/operations.md#audit-trail) of the real server: the jar Maven built runs
 * {@code http} with bearer tokens and {@code audit.file}, against the real incusd. One MCP session
 * runs a good execute and a failing one, and one request comes with a wrong token; the records are
 * then read back from the JSON-lines file and matched to the ids the results carried.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuditTrailIT {
  private static final String TOKEN = "audit-trail-it-token-0123456789abcdef";
  private static final JsonMapper JSON = JsonMapper.shared();
  private static final Pattern LISTENING =
      Pattern.compile("msg=listening addr=127\\.0\\.0\\.1:(\\d+)");

  @TempDir Path dir;
  private Process server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aGoodAFailingAndAnUnauthorizedCallEachLeaveTheirRecords() throws Exception {
    Path audit = dir.resolve("audit/trail.jsonl");
    Files.createDirectories(audit.getParent());
    int port = start("audit: {file: audit/trail.jsonl, max_file_mb: 1, max_files: 2}");
    String base = "http://127.0.0.1:" + port;

    String session = initialize(base);
    String good = "def main():\n    return len(sandbox.list()[\"items\"]) >= 0\n";
    Map<String, Object> ok = call(base, session, good);
    assertThat(ok.get("isError")).isEqualTo(false);
    String goodId = executeId(ok);
    String bad = "def main():\n    return sandbox.get(name=\"audit-it-missing\")\n";
    Map<String, Object> failed = call(base, session, bad);
    assertThat(failed.get("isError")).isEqualTo(true);
    String badId = executeId(failed);
    assertThat(goodId).matches("ex-[0-9a-f]{22}").isLessThan(badId);

    HttpResponse<String> refused =
        http.send(
            post(base, "Bearer not-a-configured-token", null, "{}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(401);

    List<Map<String, Object>> records = readBack(audit, 5);
    assertThat(records)
        .allSatisfy(r -> assertThat(r).containsEntry("logger", "agentcompute.audit"));

    Map<String, Object> goodCall = only(records, "native call", goodId);
    assertThat(goodCall)
        .containsEntry("subject", "alice")
        .containsEntry("capability", "sandbox.list")
        .containsEntry("outcome", "ok");
    Map<String, Object> goodExecute = only(records, "execute", goodId);
    assertThat(goodExecute)
        .containsEntry("subject", "alice")
        .containsEntry("session", session)
        .containsEntry("source_sha256", sha256(good))
        .containsEntry("source_bytes", good.getBytes(StandardCharsets.UTF_8).length)
        .containsEntry("outcome", "ok")
        .containsEntry("native_calls", 1);
    assertThat(((Number) goodExecute.get("duration_ms")).longValue()).isNotNegative();

    assertThat(only(records, "native call", badId))
        .containsEntry("capability", "sandbox.get")
        .containsEntry("outcome", "capability_failure")
        .containsEntry("sandbox", "audit-it-missing");
    assertThat(only(records, "execute", badId))
        .containsEntry("outcome", "capability_failure")
        .containsEntry("source_sha256", sha256(bad))
        .containsEntry("native_calls", 1);

    Map<String, Object> unauthorized =
        records.stream()
            .filter(r -> "authentication failed".equals(r.get("msg")))
            .findFirst()
            .orElseThrow();
    assertThat(unauthorized)
        .containsEntry("reason", "unknown")
        .containsEntry("method", "POST")
        .containsEntry("path", "/mcp");
    assertThat(Files.readString(audit))
        .doesNotContain("not-a-configured-token")
        .doesNotContain(TOKEN);
    // One time key a line, the same field names as the log's lines.
    for (String line : Files.readAllLines(audit)) {
      assertThat(line.split("\"time\":", -1)).hasSize(2);
    }
    assertThat(serverStderr()).contains("logger=agentcompute.audit execute_id=" + goodId);
  }

  private int start(String extraYaml) throws Exception {
    Files.createDirectories(dir.resolve("images"));
    Files.copy(
        LocalStack.root().resolve("images/catalog.yaml"), dir.resolve("images/catalog.yaml"));
    Path config = dir.resolve("agentcompute.yaml");
    Files.writeString(
        config,
        """
        incus: {url: "unix://%s", pool: default, host: none}
        sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}
        screenshots: {base_url: "http://127.0.0.1:8081", listen: "127.0.0.1:0"}
        %s
        """
            .formatted(LocalStack.incusSocket(), extraYaml));
    Path tokens = dir.resolve("tokens.json");
    Files.writeString(tokens, "{\"alice\": \"" + TOKEN + "\"}");
    Files.setPosixFilePermissions(
        tokens, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    server =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                LocalStack.serverJar().toString(),
                "http",
                "--addr",
                "127.0.0.1:0",
                "--config",
                config.toString(),
                "--auth-tokens-file",
                tokens.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(dir.resolve("stderr.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(serverStderr());
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      assertThat(server.isAlive()).as("server exited early:\n%s", serverStderr()).isTrue();
      Thread.sleep(200);
    }
    throw new AssertionError("the server did not listen within 90 s:\n" + serverStderr());
  }

  private String serverStderr() throws IOException {
    Path log = dir.resolve("stderr.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private HttpRequest post(String base, String authorization, String session, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + "/mcp"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b.build();
  }

  private String initialize(String base) throws Exception {
    HttpResponse<String> init =
        http.send(
            post(
                base,
                "Bearer " + TOKEN,
                null,
                """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"audit-trail-it","version":"1"}}}"""),
            HttpResponse.BodyHandlers.ofString());
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    http.send(
        post(
            base,
            "Bearer " + TOKEN,
            session,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
        HttpResponse.BodyHandlers.ofString());
    return session;
  }

  private int nextId = 10;

  /** One tools/call of execute; the JSON-RPC result (the SSE stream's data line). */
  @SuppressWarnings("unchecked")
  private Map<String, Object> call(String base, String session, String source) throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "jsonrpc",
                "2.0",
                "id",
                nextId++,
                "method",
                "tools/call",
                "params",
                Map.of("name", "execute", "arguments", Map.of("source", source))));
    HttpResponse<String> res =
        http.send(
            post(base, "Bearer " + TOKEN, session, body), HttpResponse.BodyHandlers.ofString());
    assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
    String data =
        res.body()
            .lines()
            .filter(l -> l.startsWith("data:") && l.contains("\"result\""))
            .reduce((a, b) -> b)
            .orElseThrow(() -> new AssertionError("no result in " + res.body()));
    Map<String, Object> message = JSON.readValue(data.substring(5).strip(), Map.class);
    return (Map<String, Object>) message.get("result");
  }

  @SuppressWarnings("unchecked")
  private static String executeId(Map<String, Object> result) {
    Map<String, Object> meta = (Map<String, Object>) result.get("_meta");
    assertThat(meta).as("_meta of %s", result).isNotNull();
    return (String) meta.get("dev.agentcompute/execute_id");
  }

  /** The file's records once it holds at least {@code count} (the writes are synchronous). */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> readBack(Path file, int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<String> lines = List.of();
    while (System.nanoTime() < deadline) {
      lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
      if (lines.size() >= count) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(lines).as("audit records").hasSizeGreaterThanOrEqualTo(count);
    return lines.stream().map(l -> (Map<String, Object>) JSON.readValue(l, Map.class)).toList();
  }

  private static Map<String, Object> only(
      List<Map<String, Object>> records, String msg, String id) {
    List<Map<String, Object>> found =
        records.stream()
            .filter(r -> msg.equals(r.get("msg")) && id.equals(r.get("execute_id")))
            .toList();
    assertThat(found).as("%s records of %s in %s", msg, id, records).hasSize(1);
    return found.getFirst();
  }

  private static String sha256(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
