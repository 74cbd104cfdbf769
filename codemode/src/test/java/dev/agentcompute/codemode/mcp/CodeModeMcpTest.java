package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CodeModeMcpTest {

  record In(String key) {}

  record Out(String key, double score) {}

  record Nothing() {}

  static Server server;

  /** Counts down when a records.wait handler has started. */
  static volatile java.util.concurrent.CountDownLatch waiting =
      new java.util.concurrent.CountDownLatch(1);

  @BeforeAll
  static void build() throws Exception {
    server =
        // A generous deadline: the first executions wait for worker JVMs on a loaded machine.
        CodeMode.builder(
                Options.builder()
                    .policy(Policy.allowRegistered())
                    .limits(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60)))
                    .build())
            .register(
                Capability.named("records.lookup", In.class, Out.class)
                    .summary("Look up <one> record & more.")
                    .handler((c, s, i) -> new Out(i.key(), 2.0)))
            .register(
                Capability.named("records.wait", Nothing.class, Nothing.class)
                    .summary("Wait until cancelled.")
                    .handler(
                        (c, s, i) -> {
                          waiting.countDown();
                          c.done().get(60, java.util.concurrent.TimeUnit.SECONDS);
                          return new Nothing();
                        }))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Map<String, McpServerFeatures.SyncToolSpecification> tools(InvocationResolver resolver) {
    return CodeModeMcp.tools(server, resolver).stream()
        .collect(Collectors.toMap(t -> t.tool().name(), t -> t));
  }

  static McpSchema.CallToolResult call(
      InvocationResolver resolver, String tool, Map<String, Object> args) {
    return tools(resolver)
        .get(tool)
        .callHandler()
        .apply(null, new McpSchema.CallToolRequest(tool, args, null));
  }

  static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().getFirst()).text();
  }

  static final InvocationResolver USER = InvocationResolver.staticSubject(new Subject("u"));

  @Test
  void exactlyThreeToolsWithVerbatimContracts() throws Exception {
    var t = tools(USER);
    assertThat(t.keySet()).containsExactlyInAnyOrder("search_api", "describe_api", "execute");
    assertThat(t.get("describe_api").tool().description())
        .isEqualTo(
            "Describe one enabled capability by the exact name "
                + "returned by search_api, without whitespace or case changes.");
    assertThat(t.get("execute").tool().description())
        .startsWith("Execute one Starlark program that defines def main(): ")
        .endsWith("load is disabled; print is discarded.");
    var json = McpJsonDefaults.getMapper();
    assertThat(json.writeValueAsString(t.get("search_api").tool().inputSchema()))
        .contains("\"additionalProperties\":false")
        .contains("\"query\"");
    assertThat(t.get("execute").tool().outputSchema()).containsKey("oneOf");
  }

  @Test
  void successesMirrorStructuredContentAsText() {
    McpSchema.CallToolResult s = call(USER, "search_api", Map.of("query", "lookup"));
    assertThat(s.isError()).isFalse();
    assertThat(text(s))
        .isEqualTo(
            "{\"results\":[{\"name\":\"records.lookup\",\"signature\":\"records.lookup(*, key: str)\","
                + "\"summary\":\"Look up \\u003cone\\u003e record \\u0026 more.\"}],\"truncated\":false}");
    McpSchema.CallToolResult d = call(USER, "describe_api", Map.of("name", "records.lookup"));
    assertThat(text(d))
        .startsWith("{\"name\":\"records.lookup\",\"signature\":")
        .contains("\"input\":[{\"name\":\"key\"," + "\"type\":\"str\",\"required\":true}]");
    McpSchema.CallToolResult e =
        call(
            USER, "execute", Map.of("source", "def main():\n    return records.lookup(key='k')\n"));
    assertThat(text(e)).isEqualTo("{\"result\":{\"key\":\"k\",\"score\":2}}");
    assertThat(e.structuredContent()).isEqualTo(Map.of("result", Map.of("key", "k", "score", 2.0)));
    assertThat(text(call(USER, "search_api", Map.of("query", ""))))
        .isEqualTo("{\"results\":[],\"truncated\":false}");
  }

  @Test
  void errorsAreFixedTexts() {
    assertThat(call(USER, "describe_api", Map.of("name", "nope.x")).isError()).isTrue();
    assertThat(text(call(USER, "describe_api", Map.of("name", "nope.x"))))
        .isEqualTo("capability not found");
    assertThat(
            text(
                call(
                    USER,
                    "execute",
                    Map.of("source", "def main():\n    return records.lookup(k=1)\n"))))
        .isEqualTo("invalid capability arguments: unknown argument \"k\"");
    assertThat(text(call(USER, "search_api", Map.of("query", "x".repeat(300)))))
        .isEqualTo("resource limit exceeded");
    assertThat(call(USER, "search_api", Map.of("query", "x".repeat(300))).structuredContent())
        .isNull();
  }

  @Test
  void everyExecuteAnswerCarriesItsIdAndDiscoveryNone() {
    McpSchema.CallToolResult ok =
        call(
            USER, "execute", Map.of("source", "def main():\n    return records.lookup(key='k')\n"));
    McpSchema.CallToolResult failed =
        call(USER, "execute", Map.of("source", "def main():\n    return records.lookup(k=1)\n"));
    McpSchema.CallToolResult refused =
        call(InvocationResolver.staticSubject(new Subject("")), "execute", Map.of("source", "x"));
    List<Object> ids = new java.util.ArrayList<>();
    for (McpSchema.CallToolResult r : List.of(ok, failed, refused)) {
      assertThat(r.meta()).containsKey(dev.agentcompute.codemode.ExecuteIds.META_KEY);
      ids.add(r.meta().get(dev.agentcompute.codemode.ExecuteIds.META_KEY));
    }
    assertThat(ids).doesNotHaveDuplicates().isSorted();
    assertThat(call(USER, "search_api", Map.of("query", "lookup")).meta()).isNull();
  }

  @Test
  void identityComesOnlyFromTheResolver() {
    InvocationResolver empty = InvocationResolver.staticSubject(new Subject(""));
    InvocationResolver failing =
        ctx -> {
          throw new Exception("token expired for alice");
        };
    InvocationResolver broken =
        ctx -> {
          throw new IllegalStateException("resolver bug for alice");
        };
    for (String tool : List.of("search_api", "describe_api", "execute")) {
      Map<String, Object> args =
          Map.of(
              tool.equals("search_api") ? "query" : tool.equals("execute") ? "source" : "name",
              "x");
      assertThat(text(call(empty, tool, args))).isEqualTo("unauthenticated");
      assertThat(text(call(failing, tool, args))).isEqualTo("unauthenticated");
      assertThat(text(call(broken, tool, args)))
          .as("an unchecked exception is a bug, as a Go panic")
          .isEqualTo("internal failure");
      assertThat(text(call(InvocationResolver.contextSubject(), tool, args)))
          .isEqualTo("unauthenticated");
    }
    Context withSubject = new Subject("ctx-user").in(Context.background());
    assertThat(Subject.from(withSubject)).contains(new Subject("ctx-user"));
  }

  @Test
  void aCallWhoseCallerIsGoneIsCanceled() throws Exception {
    waiting = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CompletableFuture<Void> callerGone =
        new java.util.concurrent.CompletableFuture<>();
    var transport =
        io.modelcontextprotocol.common.McpTransportContext.create(
            Map.of(CodeModeMcp.CANCELLATION_CONTEXT_KEY, callerGone));
    var exchange =
        new io.modelcontextprotocol.server.McpSyncServerExchange(
            new io.modelcontextprotocol.server.McpAsyncServerExchange(
                "s", null, null, null, transport));
    var handler = tools(USER).get("execute").callHandler();
    var result =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () ->
                handler.apply(
                    exchange,
                    new McpSchema.CallToolRequest(
                        "execute",
                        Map.of("source", "def main():\n    return records.wait()\n"),
                        null)));
    assertThat(waiting.await(60, java.util.concurrent.TimeUnit.SECONDS))
        .as("the capability call started")
        .isTrue();
    assertThat(result).isNotDone();
    callerGone.complete(null);
    McpSchema.CallToolResult r = result.get(60, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).isEqualTo("context canceled");
  }
}
