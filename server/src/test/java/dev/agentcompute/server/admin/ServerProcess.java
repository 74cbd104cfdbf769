package dev.agentcompute.server.admin;

import dev.agentcompute.server.LocalStack;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * The server jar Maven packaged, running over HTTP on a free loopback port against the real incusd,
 * with bearer tokens (operator {@code alice}, agent {@code bob}) and {@code admin.operators:
 * [alice]}. Sandbox subnets come from the tests' 10.211.0.0/16. Closing it stops the process
 * (SIGTERM, then SIGKILL after 30 s), so no server outlives a test.
 */
final class ServerProcess implements AutoCloseable {
  static final String ALICE = "alice-admin-token";
  static final String BOB = "bob-agent-token";
  private static final JacksonMcpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.shared());
  private static final Duration STARTUP = Duration.ofSeconds(120);

  final Path tokens;
  final String url;
  private final Process process;
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  ServerProcess(Path dir) throws Exception {
    Path root = LocalStack.root();
    Files.createDirectories(dir.resolve("images"));
    Files.copy(root.resolve("images/catalog.yaml"), dir.resolve("images/catalog.yaml"));
    tokens = dir.resolve("tokens.json");
    Files.writeString(tokens, "{\"alice\": \"" + ALICE + "\", \"bob\": \"" + BOB + "\"}");
    Path config = dir.resolve("agentcompute.yaml");
    Files.writeString(
        config,
        """
        incus: {url: "unix://%s", pool: default, host: none}
        sandbox: {default_network_kind: bridge}
        network: {bridge_subnets: 10.211.0.0/16}
        screenshots: {dir: "%s"}
        admin: {operators: [alice]}
        """
            .formatted(LocalStack.incusSocket(), dir.resolve("screenshots")));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    url = "http://127.0.0.1:" + port;
    process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                LocalStack.serverJar().toString(),
                "http",
                "--config",
                config.toString(),
                "--addr",
                "127.0.0.1:" + port,
                "--auth-tokens-file",
                tokens.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    Thread.ofVirtual()
        .start(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  log.add(line);
                  System.err.println("[server] " + line);
                }
              } catch (IOException ignored) {
                // the process ended
              }
            });
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (log.stream().noneMatch(l -> l.contains("listening"))) {
      if (!process.isAlive() || System.nanoTime() - deadline > 0) {
        close();
        throw new AssertionError("the server did not start within " + STARTUP + ":\n" + log);
      }
      Thread.sleep(100);
    }
  }

  /** A request with {@code token} as bearer (none when null). */
  HttpResponse<String> send(String method, String path, String token, String jsonBody)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                jsonBody == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(jsonBody));
    if (jsonBody != null) {
      b.header("Content-Type", "application/json");
    }
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** An MCP client over HTTP with {@code token}. */
  McpSyncClient mcp(String token) {
    return mcp(token, Duration.ofMinutes(3));
  }

  /** An MCP client over HTTP with {@code token} whose requests give up after {@code timeout}. */
  McpSyncClient mcp(String token, Duration timeout) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(url)
            .endpoint("/mcp")
            .jsonMapper(JSON)
            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(timeout)
            .initializationTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize();
    return client;
  }

  static McpSchema.CallToolResult execute(McpSyncClient client, String source) {
    return client.callTool(new McpSchema.CallToolRequest("execute", Map.of("source", source)));
  }

  static String text(McpSchema.CallToolResult result) {
    return ((McpSchema.TextContent) result.content().getFirst()).text();
  }

  /** The server's threads, for a test that timed out waiting on it. */
  String threadDump() {
    Path dump = tokens.resolveSibling("threads.txt");
    try {
      Process jcmd =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(process.pid()),
                  "Thread.dump_to_file",
                  "-overwrite",
                  dump.toString())
              .redirectErrorStream(true)
              .start();
      jcmd.getInputStream().readAllBytes();
      jcmd.waitFor(30, TimeUnit.SECONDS);
      // Virtual threads included: the server runs every request on one.
      return Files.readString(dump);
    } catch (IOException | InterruptedException e) {
      return "no thread dump: " + e;
    }
  }

  List<String> log() {
    return log;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
