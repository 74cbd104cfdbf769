package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful restart as systemd does it: the real server jar runs as a child process over HTTP
 * against the real incusd, an execute that takes seconds is in flight, and the process gets a real
 * SIGTERM. The execute completes with its result, new work is refused with 503 naming the drain,
 * /health/ready is down, and the process exits 0 once the execute has finished.
 */
class SigtermDrainIT {
  private static final Pattern LISTENING =
      Pattern.compile("msg=listening addr=127\\.0\\.0\\.1:(\\d+)");
  private static final String JSON = "application/json";
  // Under the execute's limit of 1,000 capability calls; seconds of work on this stack.
  private static final int CALLS = 800;
  private static final String ACCEPT = "application/json, text/event-stream";

  @TempDir Path dir;
  private Process server;
  private final StringBuffer stderr = new StringBuffer();

  @AfterEach
  void kill() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void aRunningExecuteFinishesAfterSigtermAndNewWorkIsRefused() throws Exception {
    Path config = dir.resolve("agentcompute.yaml");
    Files.createDirectories(dir.resolve("images"));
    Files.copy(
        LocalStack.root().resolve("images/catalog.yaml"), dir.resolve("images/catalog.yaml"));
    Files.writeString(
        config,
        """
        incus: {url: "unix://%s", pool: default, host: none, ovn_uplink: ovn-uplink}
        sandbox: {default_ttl_minutes: 30, max_ttl_minutes: 120}
        screenshots: {base_url: "http://127.0.0.1:8081"}
        http: {drain_timeout_seconds: 120}
        """
            .formatted(LocalStack.incusSocket()));
    server =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                LocalStack.serverJar().toString(),
                "http",
                "--addr",
                "127.0.0.1:0",
                "--config",
                config.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    Thread.ofVirtual().start(() -> pump(server.getErrorStream()));
    int port = awaitPort(Duration.ofSeconds(90));
    URI mcp = URI.create("http://127.0.0.1:" + port + "/mcp");
    HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> init =
        http.send(
            post(
                mcp,
                null,
                """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"drain","version":"0"}}}\
                """),
            HttpResponse.BodyHandlers.ofString());
    assertThat(init.statusCode()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    http.send(
        post(mcp, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
        HttpResponse.BodyHandlers.ofString());

    // Many Incus reads: seconds of real work, each logged as a native call when it returns.
    String program =
        "def main():\\n    n = 0\\n    for i in range("
            + CALLS
            + "):\\n        sandbox.list()\\n"
            + "        n += 1\\n    return n\\n";
    CompletableFuture<HttpResponse<String>> longExecute =
        http.sendAsync(
            post(
                mcp,
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                    + "\"arguments\":{\"source\":\""
                    + program
                    + "\"}}}"),
            HttpResponse.BodyHandlers.ofString());
    await(() -> stderr.toString().contains("capability=sandbox.list"), "the first Incus call");

    long pid = server.pid();
    new ProcessBuilder("kill", "-TERM", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
    await(() -> stderr.toString().contains("msg=\"shutting down\""), "the shutdown log line");
    assertThat(stderr.toString()).contains("drain_timeout=120s signal=SIGTERM");

    HttpResponse<String> refused =
        http.send(
            post(mcp, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body())
        .contains("server is shutting down")
        .contains("http.drain_timeout_seconds = 120");
    HttpResponse<String> ready =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("draining for shutdown");
    assertThat(longExecute).isNotDone();

    HttpResponse<String> finished = longExecute.get(120, TimeUnit.SECONDS);
    assertThat(finished.statusCode()).isEqualTo(200);
    assertThat(finished.body()).contains("\"result\":" + CALLS).doesNotContain("\"isError\":true");
    assertThat(server.waitFor(60, TimeUnit.SECONDS))
        .as("the server exits after the drain")
        .isTrue();
    assertThat(server.exitValue()).isZero();
    assertThat(stderr.toString()).contains("shut down cleanly");
  }

  private void pump(InputStream in) {
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        stderr.append(new String(buf, 0, n, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      // The process ended.
    }
  }

  private int awaitPort(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(stderr);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      assertThat(server.isAlive()).as("server exited before listening:\n%s", stderr).isTrue();
      Thread.sleep(100);
    }
    throw new AssertionError("server did not listen within " + limit + ":\n" + stderr);
  }

  private void await(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what + ":\n" + stderr);
      }
      Thread.sleep(20);
    }
  }

  private static HttpRequest post(URI uri, String session, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", JSON)
            .header("Accept", ACCEPT)
            .header("MCP-Protocol-Version", "2025-06-18")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b.build();
  }
}
