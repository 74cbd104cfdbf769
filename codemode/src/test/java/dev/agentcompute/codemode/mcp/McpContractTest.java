package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The error texts (docs/reference/codemode.md#error-results), tool descriptions
 * (#tool-descriptions) and success spellings (#success-results) through the tool handlers.
 */
class McpContractTest {

  record ModeIn(String mode) {}

  record Empty() {}

  record Out(double half, double whole, String html) {}

  static Server server;

  @BeforeAll
  static void build() throws Exception {
    server =
        CodeMode.builder(
                Options.builder()
                    .authorizer(
                        (ctx, req) -> {
                          switch (String.valueOf(req.arguments().get("mode"))) {
                            case "deny" -> throw new AccessDenied("not for you");
                            case "policy" -> throw new Exception("opa unreachable at 10.0.0.1");
                            default -> {}
                          }
                        })
                    .limits(
                        Limits.unset()
                            .withMaxExecutionSteps(10000)
                            .withMaxExecutionTime(java.time.Duration.ofSeconds(60)))
                    .build())
            .register(
                Capability.named("errors.fail", ModeIn.class, Out.class)
                    .summary("Fail on demand.")
                    .handler(
                        (c, s, in) ->
                            switch (in.mode()) {
                              case "plain" -> throw new Exception("db password wrong");
                              case "agent" ->
                                  throw new Exception("wrapper", new AgentError("row 7 is locked"));
                              case "panic" -> throw new IllegalStateException("bug");
                              default -> new Out(0.5, 2.0, "<a&b>");
                            }))
            .register(
                Capability.named("health.status", Empty.class, Empty.class)
                    .summary("Health.")
                    .handler((c, s, in) -> new Empty()))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static final InvocationResolver USER = InvocationResolver.staticSubject(new Subject("u"));

  static Map<String, McpServerFeatures.SyncToolSpecification> tools() {
    return CodeModeMcp.tools(server, USER).stream()
        .collect(Collectors.toMap(t -> t.tool().name(), t -> t));
  }

  static McpSchema.CallToolResult call(
      InvocationResolver resolver, String tool, String property, String value) {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put(property, value);
    return CodeModeMcp.tools(server, resolver).stream()
        .filter(t -> t.tool().name().equals(tool))
        .findFirst()
        .orElseThrow()
        .callHandler()
        .apply(null, new McpSchema.CallToolRequest(tool, args, null));
  }

  static McpSchema.CallToolResult execute(String body) {
    return call(USER, "execute", "source", "def main():\n" + body.indent(4));
  }

  static String text(McpSchema.CallToolResult r) {
    assertThat(r.content()).hasSize(1);
    return ((McpSchema.TextContent) r.content().getFirst()).text();
  }

  static String error(McpSchema.CallToolResult r) {
    assertThat(r.isError()).isTrue();
    assertThat(r.structuredContent()).isNull();
    return text(r);
  }

  @Test
  void errorTextsAreFixedAndDiscloseOnlySafeDetails() {
    assertThat(error(execute("return errors.fail(mode='deny')"))).isEqualTo("permission denied");
    assertThat(error(execute("return errors.fail(mode='policy')")))
        .isEqualTo("authorization policy failure");
    assertThat(error(execute("return errors.fail(mode='plain')"))).isEqualTo("capability failed");
    assertThat(error(execute("return errors.fail(mode='agent')")))
        .isEqualTo("capability failed: row 7 is locked");
    assertThat(error(execute("return errors.fail(mode='panic')"))).isEqualTo("internal failure");
    assertThat(error(execute("return errors.fail(mode=1)")))
        .isEqualTo("invalid capability arguments: argument \"mode\" must be a string");
    assertThat(error(execute("return fail('secret')"))).isEqualTo("invalid program");
    assertThat(error(execute("return )"))).startsWith("invalid program: <codemode>:2:");
    assertThat(error(execute("for i in range(1000000):\n    pass")))
        .isEqualTo("resource limit exceeded");
    assertThat(error(call(USER, "execute", "source", "x".repeat(70_000))))
        .isEqualTo("resource limit exceeded");
    assertThat(error(call(USER, "describe_api", "name", " health.status")))
        .isEqualTo("capability not found");
  }

  @Test
  void successSpellingsFollowGoEncodingJson() {
    McpSchema.CallToolResult r = execute("return errors.fail(mode='ok')");
    assertThat(r.isError()).isFalse();
    assertThat(text(r))
        .isEqualTo("{\"result\":{\"half\":0.5,\"html\":\"\\u003ca\\u0026b\\u003e\",\"whole\":2}}");
    assertThat(r.structuredContent())
        .isEqualTo(Map.of("result", Map.of("half", 0.5, "whole", 2.0, "html", "<a&b>")));
    assertThat(text(execute("return None"))).isEqualTo("{\"result\":null}");
    assertThat(text(execute("return -0.0"))).isEqualTo("{\"result\":-0}");
    McpSchema.CallToolResult d = call(USER, "describe_api", "name", "health.status");
    assertThat(text(d))
        .isEqualTo(
            "{\"name\":\"health.status\",\"signature\":\"health.status()\",\"summary\":\"Health.\","
                + "\"description\":\"Health.\",\"input\":[],\"output\":[],\"hints\":{\"read_only\":false,"
                + "\"destructive\":true,\"idempotent\":false,\"open_world\":true}}");
    assertThat(((Map<?, ?>) d.structuredContent()).get("input")).isEqualTo(List.of());
    assertThat(((Map<?, ?>) d.structuredContent()).get("output")).isEqualTo(List.of());
  }

  @Test
  void descriptionsAreVerbatim() {
    var t = tools();
    assertThat(t.get("search_api").tool().description())
        .isEqualTo(
            "Search enabled capabilities using task, resource, or "
                + "exact-name vocabulary. Results are relevance-ranked. Pass the exact returned name to describe_api. If truncated "
                + "is true and no result fits, submit a more specific task/resource query. If next_cursor is present, "
                + "call search_api again with the same query and that cursor to get more results.");
    assertThat(t.get("execute").tool().description())
        .isEqualTo(
            "Execute one Starlark program that defines def main(): with "
                + "zero arguments, calls only names confirmed through search_api and describe_api inside main, and returns main's "
                + "final result. Standard Starlark builtins plus sum(iterable), json.decode/encode/indent, and math.* are directly "
                + "available without import. import, while, f-strings, filter, and map are unavailable; load is disabled; print "
                + "is discarded.");
  }

  @Test
  void theContextResolverReadsOnlyTheHostsSubject() throws Exception {
    InvocationResolver resolver = InvocationResolver.contextSubject();
    assertThat(resolver.resolve(new Subject("alice").in(Context.background())))
        .isEqualTo(new Subject("alice"));
    assertThat(error(call(resolver, "search_api", "query", "health"))).isEqualTo("unauthenticated");
    assertThat(
            error(
                call(
                    InvocationResolver.staticSubject(new Subject("")),
                    "execute",
                    "source",
                    "def main():\n    return 1\n")))
        .isEqualTo("unauthenticated");
  }

  @Test
  void metaNeverNamesTheSubjectAndConstructionNeedsBothParts() {
    McpSchema.CallToolResult r =
        CodeModeMcp.tools(server, InvocationResolver.staticSubject(new Subject(""))).stream()
            .filter(t -> t.tool().name().equals("search_api"))
            .findFirst()
            .orElseThrow()
            .callHandler()
            .apply(
                null,
                new McpSchema.CallToolRequest(
                    "search_api", Map.of("query", "health"), Map.of("subject", "alice")));
    assertThat(error(r)).isEqualTo("unauthenticated");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CodeModeMcp.tools(null, USER))
        .hasMessage("service");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CodeModeMcp.tools(server, null))
        .hasMessage("resolver");
  }
}
