package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link CodeModeMcp#serveStdio} end to end through the SDK's JSON-RPC server in a child JVM
 * (docs/reference/codemode.md#mcp, R76, R77, R79-R81): identity, the listed tools and schemas,
 * SDK-level rejection of malformed arguments before the resolver, and unknown tools as JSON-RPC
 * errors.
 */
class CodeModeStdioTest {

  static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
  static Process process;
  static OutputStream in;
  static BufferedReader out;
  static int nextId = 1;

  @BeforeAll
  static void start() throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    ProcessBuilder pb =
        new ProcessBuilder(
            java, "-cp", System.getProperty("java.class.path"), StdioServerMain.class.getName());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    process = pb.start();
    in = process.getOutputStream();
    out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Map<String, Object> init =
        request(
            "initialize",
            Map.of(
                "protocolVersion",
                "2025-06-18",
                "capabilities",
                Map.of(),
                "clientInfo",
                Map.of("name", "test", "version", "1")));
    initialized = init;
    send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
  }

  static Map<String, Object> initialized;

  @AfterAll
  static void stop() throws Exception {
    if (process != null) {
      in.close();
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  static void send(Map<String, Object> message) throws Exception {
    in.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> request(String method, Map<String, Object> params) throws Exception {
    int id = nextId++;
    send(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
    while (true) {
      String line = out.readLine();
      assertThat(line).as("a response to " + method).isNotNull();
      Map<String, Object> m = JSON.readValue(line, Map.class);
      if (Integer.valueOf(id).equals(m.get("id"))) {
        return m;
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> result(Map<String, Object> response) {
    assertThat(response).containsKey("result");
    return (Map<String, Object>) response.get("result");
  }

  static Map<String, Object> call(String tool, Map<String, Object> args) throws Exception {
    return request("tools/call", Map.of("name", tool, "arguments", args));
  }

  @SuppressWarnings("unchecked")
  static String text(Map<String, Object> result) {
    return (String) ((List<Map<String, Object>>) result.get("content")).getFirst().get("text");
  }

  @Test
  @SuppressWarnings("unchecked")
  void serverIdentityAndCapabilities() {
    Map<String, Object> r = result(initialized);
    assertThat(r.get("serverInfo")).isEqualTo(Map.of("name", "codemode", "version", "2"));
    Map<String, Object> caps = (Map<String, Object>) r.get("capabilities");
    assertThat(caps).containsKeys("tools", "logging");
    assertThat((Map<String, Object>) caps.get("tools")).containsEntry("listChanged", true);
  }

  @Test
  @SuppressWarnings("unchecked")
  void listsExactlyTheThreeToolsWithTheirSchemas() throws Exception {
    List<Map<String, Object>> tools =
        (List<Map<String, Object>>) result(request("tools/list", Map.of())).get("tools");
    assertThat(tools)
        .extracting(t -> t.get("name"))
        .containsExactlyInAnyOrder("describe_api", "execute", "search_api");
    for (Map<String, Object> t : tools) {
      String property =
          switch ((String) t.get("name")) {
            case "search_api" -> "query";
            case "describe_api" -> "name";
            default -> "source";
          };
      Map<String, Object> properties =
          switch ((String) t.get("name")) {
            case "search_api" ->
                Map.of("query", Map.of("type", "string"), "cursor", Map.of("type", "string"));
            case "describe_api" -> Map.of("name", Map.of("type", "string"));
            default ->
                Map.of(
                    "source", Map.of("type", "string"), "confirmation", Map.of("type", "string"));
          };
      assertThat(t.get("inputSchema"))
          .isEqualTo(
              Map.of(
                  "type",
                  "object",
                  "required",
                  List.of(property),
                  "additionalProperties",
                  false,
                  "properties",
                  properties));
    }
    Map<String, Object> search =
        tools.stream().filter(t -> t.get("name").equals("search_api")).findFirst().orElseThrow();
    assertThat(search.get("description")).isEqualTo(ToolContracts.SEARCH_DESCRIPTION);
    assertThat(search.get("outputSchema"))
        .isEqualTo(JSON.readValue(ToolContracts.SEARCH_OUTPUT, Map.class));
    Map<String, Object> describe =
        tools.stream().filter(t -> t.get("name").equals("describe_api")).findFirst().orElseThrow();
    assertThat(describe.get("outputSchema"))
        .isEqualTo(JSON.readValue(ToolContracts.DESCRIBE_OUTPUT, Map.class));
    Map<String, Object> execute =
        tools.stream().filter(t -> t.get("name").equals("execute")).findFirst().orElseThrow();
    // "any" is spelled {} rather than the boolean schema true (docs/codemode.md, MCP); the
    // confirmation shape of a "confirmation required" error is the alternative to result.
    assertThat(execute.get("outputSchema"))
        .isEqualTo(JSON.readValue(ToolContracts.EXECUTE_OUTPUT, Map.class));
    assertThat(((Map<?, ?>) execute.get("outputSchema")).get("oneOf"))
        .isEqualTo(
            List.of(
                Map.of("required", List.of("result")),
                Map.of("required", List.of("confirmation"))));
    assertThat(
            ((Map<?, ?>) ((Map<?, ?>) execute.get("outputSchema")).get("properties")).get("result"))
        .isEqualTo(Map.of());
  }

  @Test
  void successesCarryStructuredContentAndItsTextMirror() throws Exception {
    Map<String, Object> r =
        result(
            call("execute", Map.of("source", "def main():\n    return records.lookup(key='k')\n")));
    assertThat(r.get("isError")).isIn(false, null);
    assertThat(r.get("structuredContent")).isEqualTo(Map.of("result", Map.of("key", "k")));
    assertThat(text(r)).isEqualTo("{\"result\":{\"key\":\"k\"}}");
    Map<String, Object> d = result(call("describe_api", Map.of("name", "records.lookup")));
    assertThat(text(d))
        .isEqualTo(
            "{\"name\":\"records.lookup\",\"signature\":\"records.lookup(*, key: str)\","
                + "\"summary\":\"Look up one record.\",\"description\":\"Look up one record.\",\"input\":[{\"name\":\"key\","
                + "\"type\":\"str\",\"required\":true}],\"output\":[{\"name\":\"key\",\"type\":\"str\",\"required\":true}],"
                + "\"hints\":{\"read_only\":false,\"destructive\":true,\"idempotent\":false,\"open_world\":true}}");
  }

  @Test
  void malformedArgumentsAreToolErrorsBeforeTheService() throws Exception {
    for (Map<String, Object> args :
        List.<Map<String, Object>>of(
            Map.of(), Map.of("query", 1), Map.of("query", "records", "extra", "x"))) {
      Map<String, Object> r = result(call("search_api", args));
      assertThat(r.get("isError")).as(args.toString()).isEqualTo(true);
      assertThat(text(r)).as(args.toString()).isNotBlank();
      assertThat(r.get("structuredContent")).isNull();
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void resourcesAreDeclaredListedAndReadOverStdio() throws Exception {
    Map<String, Object> caps = (Map<String, Object>) result(initialized).get("capabilities");
    assertThat(caps.get("resources")).isEqualTo(Map.of("subscribe", false, "listChanged", false));

    Map<String, Object> list = result(request("resources/list", Map.of()));
    assertThat((List<Map<String, Object>>) list.get("resources"))
        .extracting(r -> r.get("uri"))
        .containsExactly("records://status");
    Map<String, Object> read = result(request("resources/read", Map.of("uri", "records://status")));
    assertThat((List<Map<String, Object>>) read.get("contents"))
        .containsExactly(
            Map.of(
                "uri",
                "records://status",
                "mimeType",
                "application/json",
                "text",
                "{\"state\":\"ok\"}"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void anUnknownResourceIsAJsonRpcErrorOverStdio() throws Exception {
    Map<String, Object> r = request("resources/read", Map.of("uri", "records://nope"));

    assertThat((Map<String, Object>) r.get("error"))
        .containsEntry("code", -32002)
        .containsEntry("message", "Resource not found");
  }

  @Test
  void anUnknownToolIsAJsonRpcError() throws Exception {
    Map<String, Object> r = call("run_shell", Map.of("source", "x"));
    assertThat(r).containsKey("error").doesNotContainKey("result");
  }
}
