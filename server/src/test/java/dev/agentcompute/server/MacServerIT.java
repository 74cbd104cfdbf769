package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.lume.GuestDouble;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.lume.MacHostDouble;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mac platform (docs/reference/capabilities.md#macos-guests) through the real server over MCP.
 * The server jar Maven built runs as a child process over stdio, configured only with the keys of
 * docs/configuration.md#configuration-file (its Lume host, keys and known_hosts files), against the
 * real incusd and the Mac host double over real SSH. The double keeps its shims where macOS keeps
 * the tools the server calls by their production paths (see {@link MacHostDouble#BANNER} for what
 * is real and what is a double).
 */
class MacServerIT {
  private static final String IMAGE = GuestDouble.IMAGE;
  private static final JacksonMcpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.shared());

  @TempDir Path dir;
  private MacHostDouble mac;
  private Path config;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER + "; REAL: the server jar, incusd, the MCP Java SDK");
  }

  @BeforeEach
  void start() throws Exception {
    mac = new MacHostDouble(dir.resolve("mac"));
    mac.lume.addVm(GuestDouble.SEED, 4, 8L << 30, 100L << 30);
    mac.lume.bootDelayMillis = 100;
    Path catalog = dir.resolve("catalog.yaml");
    Files.writeString(catalog, GuestDouble.CATALOG);
    config = dir.resolve("agentcompute.yaml");
    Files.writeString(
        config,
        """
        incus: {url: "unix://%s", pool: default, host: none, ovn_uplink: ovn-uplink}
        sandbox: {default_ttl_minutes: 30, max_ttl_minutes: 120, pin_identities: [local]}
        images_file: %s
        screenshots: {base_url: "http://127.0.0.1:8081"}
        lume:
          host: "127.0.0.1:%d"
          identity_file: %s
          known_hosts_file: %s
          guest_known_hosts_file: %s
          guest_keys: {"%s": %s}
        """
            .formatted(
                LocalStack.incusSocket(),
                catalog,
                mac.port(),
                mac.identityFile(),
                mac.knownHostsFile(),
                mac.guest.knownHostsFile(),
                IMAGE,
                mac.guest.keyFile()));
  }

  @AfterEach
  void stop() throws Exception {
    mac.close();
  }

  @Test
  void anAgentDrivesAMacGuestAndItsPinSurvivesAServerRestart() throws Exception {
    try (Session first = new Session()) {
      Map<String, Object> made =
          first.run(
              """
              def main():
                  s = sandbox.create(name="macit", platform="mac")
                  i = instance.create(sandbox="macit", name="web", image="%s")
                  e = instance.exec(sandbox="macit", name="web", command="echo $GREETING", env="GREETING=hello")
                  sandbox.pin(name="macit", pinned=True)
                  return {"platform": s["platform"], "status": i["status"], "stdout": e["stdout"]}
              """
                  .formatted(IMAGE));
      assertThat(made)
          .containsEntry("platform", "mac")
          .containsEntry("status", "Running")
          .containsEntry("stdout", "hello\n");
      assertThat(first.failure("def main():\n    return net.list(sandbox=\"macit\")\n"))
          .isEqualTo("capability failed: unsupported on platform mac");
    }
    // The server used macOS's own tool paths (no test-only configuration exists for them).
    assertThat(mac.commands).anyMatch(c -> c.contains(MacHost.Tools.DEFAULT.lume()));
    assertThat(mac.guest.commands)
        .anyMatch(c -> c.contains(MacHost.GuestPaths.DEFAULT.cuaDriver()));
    assertThat(mac.lume.vms).containsKey("ac-macit-web");

    try (Session second = new Session()) {
      Map<String, Object> after =
          second.run(
              """
              def main():
                  s = sandbox.get(name="macit")
                  return {"pinned": s["pinned"], "platform": s["platform"], "instances": len(instance.list(sandbox="macit")["items"])}
              """);
      assertThat(after)
          .containsEntry("pinned", true)
          .containsEntry("platform", "mac")
          .containsEntry("instances", 1);
      second.run(
          """
          def main():
              sandbox.pin(name="macit", pinned=False)
              sandbox.delete(name="macit")
          """);
      assertThat(second.failure("def main():\n    return sandbox.get(name=\"macit\")\n"))
          .isEqualTo("capability failed: sandbox \"macit\" not found");
    }
    assertThat(mac.lume.vms.keySet()).containsExactly(GuestDouble.SEED);
  }

  @Test
  void aMacHostWhoseKeyIsNotTheListedOneStopsTheServerAtStartup() throws Exception {
    Files.writeString(
        mac.knownHostsFile(),
        Files.readString(mac.guest.knownHostsFile())
            .replace(GuestDouble.SEED, "[127.0.0.1]:" + mac.port()));
    Process server =
        new ProcessBuilder(
                javaBinary(),
                "-jar",
                LocalStack.serverJar().toString(),
                "stdio",
                "--config",
                config.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String stderr = new String(server.getErrorStream().readAllBytes());
    assertThat(server.waitFor()).isEqualTo(1);
    assertThat(stderr).contains("host key mismatch for 127.0.0.1");
    assertThat(mac.lume.requests).isEmpty();
  }

  /** One server process and an MCP client on its stdio. */
  private final class Session implements AutoCloseable {
    private final McpSyncClient client;

    Session() throws java.io.IOException {
      ServerParameters params =
          ServerParameters.builder(javaBinary())
              .args(
                  "-jar", LocalStack.serverJar().toString(), "stdio", "--config", config.toString())
              .build();
      StdioClientTransport transport = new StdioClientTransport(params, JSON);
      transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
      client =
          McpClient.sync(transport)
              .requestTimeout(Duration.ofMinutes(3))
              .initializationTimeout(Duration.ofSeconds(60))
              .build();
      client.initialize();
    }

    private McpSchema.CallToolResult call(String source) {
      return client.callTool(new McpSchema.CallToolRequest("execute", Map.of("source", source)));
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> run(String source) {
      McpSchema.CallToolResult result = call(source);
      assertThat(result.isError()).as("%s", result.content()).isNotEqualTo(Boolean.TRUE);
      Object value = ((Map<String, Object>) result.structuredContent()).get("result");
      return value == null ? Map.of() : (Map<String, Object>) value;
    }

    String failure(String source) {
      McpSchema.CallToolResult result = call(source);
      assertThat(result.isError()).isTrue();
      return ((McpSchema.TextContent) result.content().getFirst()).text();
    }

    @Override
    public void close() {
      client.closeGracefully();
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
