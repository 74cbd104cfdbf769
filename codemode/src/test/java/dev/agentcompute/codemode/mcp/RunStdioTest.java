package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CodeModeMcp#runStdio} in a child JVM: the name and version it was given, a handler's
 * System.out kept off the protocol, and the host and its workers gone once stdin closes.
 */
class RunStdioTest {

  static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

  @Test
  @SuppressWarnings("unchecked")
  void servesUntilStdinClosesThenStopsItsWorkers(@TempDir Path dir) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Path err = dir.resolve("stderr");
    Process p =
        new ProcessBuilder(
                java, "-cp", System.getProperty("java.class.path"), RunStdioMain.class.getName())
            .redirectError(err.toFile())
            .start();
    try {
      OutputStream in = p.getOutputStream();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      Map<String, Object> init =
          exchange(
              in,
              out,
              1,
              "initialize",
              Map.of(
                  "protocolVersion",
                  "2025-06-18",
                  "capabilities",
                  Map.of(),
                  "clientInfo",
                  Map.of("name", "test", "version", "1")));
      assertThat(((Map<String, Object>) init.get("result")).get("serverInfo"))
          .isEqualTo(Map.of("name", "echo-host", "version", "3.1"));
      send(in, Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
      Map<String, Object> called =
          exchange(
              in,
              out,
              2,
              "tools/call",
              Map.of(
                  "name",
                  "execute",
                  "arguments",
                  Map.of("source", "def main():\n    return records.echo(key=\"k\")\n")));
      // Every stdout line so far parsed as JSON-RPC: the handler's print went to stderr.
      assertThat(((Map<String, Object>) called.get("result")).get("structuredContent"))
          .isEqualTo(Map.of("result", Map.of("key", "k")));

      Set<ProcessHandle> workers = new HashSet<>();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (workers.stream().noneMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
        p.toHandle().children().forEach(workers::add);
        Thread.sleep(50);
      }
      assertThat(workers).as("pre-started workers").anyMatch(ProcessHandle::isAlive);

      in.close();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the host exits").isTrue();
      assertThat(p.exitValue()).isZero();
      for (ProcessHandle w : workers) {
        assertThat(w.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
      }
      String stderr = Files.readString(err);
      assertThat(stderr).contains("a handler that prints k").contains("runStdio returned");
    } finally {
      p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static void send(OutputStream in, Map<String, Object> message) throws Exception {
    in.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> exchange(
      OutputStream in, BufferedReader out, int id, String method, Map<String, Object> params)
      throws Exception {
    send(in, Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
    while (true) {
      String line = out.readLine();
      assertThat(line).as("a response to " + method).isNotNull();
      Map<String, Object> m = JSON.readValue(line, Map.class);
      if (Integer.valueOf(id).equals(m.get("id"))) {
        return m;
      }
      assertThat(m).as("only JSON-RPC on stdout").containsKey("jsonrpc");
    }
  }
}
