package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CapabilityCall;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Confirmation;
import dev.agentcompute.codemode.Hints;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hints, search cursors and confirmations through the MCP tool handlers (docs/reference/policy.md).
 */
class McpPolicyTest {

  record Name(String name) {}

  record Done(String name) {}

  static final InvocationResolver USER = InvocationResolver.staticSubject(new Subject("u"));
  static final String DELETE = "def main():\n    return records.delete(name='web')\n";
  static Server server;

  @BeforeAll
  static void build() throws Exception {
    var b =
        CodeMode.builder(
            Options.builder()
                .policy(Policy.allowRegistered())
                .limits(
                    Limits.unset()
                        .withMaxSearchResults(1)
                        .withMaxExecutionTime(java.time.Duration.ofSeconds(60)))
                .build());
    b.register(
        Capability.named("records.get", Name.class, Done.class)
            .summary("Get a record.")
            .title("Get")
            .hints(Hints.defaults().withReadOnly(true).withDestructive(false))
            .handler(
                (c, s, in) -> {
                  CapabilityCall.of(c).progress("fetching");
                  return new Done("got " + in.name());
                }));
    b.register(
        Capability.named("records.delete", Name.class, Done.class)
            .summary("Delete a record.")
            .confirmation(Confirmation.REQUIRED)
            .handler((c, s, in) -> new Done("deleted " + in.name())));
    server = b.build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Map<String, McpServerFeatures.SyncToolSpecification> tools() {
    return CodeModeMcp.tools(server, USER).stream()
        .collect(Collectors.toMap(t -> t.tool().name(), t -> t));
  }

  static McpSchema.CallToolResult call(
      McpSyncServerExchange exchange, String tool, Map<String, Object> args) {
    return tools()
        .get(tool)
        .callHandler()
        .apply(exchange, new McpSchema.CallToolRequest(tool, args, null));
  }

  static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().getFirst()).text();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> structured(McpSchema.CallToolResult r) {
    return (Map<String, Object>) r.structuredContent();
  }

  static Map<String, Object> args(String... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static McpSchema.ElicitResult answer(McpSchema.ElicitResult.Action action, Object confirm) {
    return new McpSchema.ElicitResult(action, confirm == null ? null : Map.of("confirm", confirm));
  }

  @Test
  void discoveryToolsAreReadOnlyIdempotentAndClosedWorld() {
    for (String name : List.of("search_api", "describe_api")) {
      McpSchema.ToolAnnotations a = tools().get(name).tool().annotations();
      assertThat(a.readOnlyHint()).as(name).isTrue();
      assertThat(a.idempotentHint()).as(name).isTrue();
      assertThat(a.openWorldHint()).as(name).isFalse();
    }
  }

  @Test
  void executeIsDestructiveNotIdempotentAndOpenWorld() {
    McpSchema.ToolAnnotations a = tools().get("execute").tool().annotations();

    assertThat(a.readOnlyHint()).isFalse();
    assertThat(a.destructiveHint()).isTrue();
    assertThat(a.idempotentHint()).isFalse();
    assertThat(a.openWorldHint()).isTrue();
  }

  @Test
  void describeCarriesAllFourHintsAndTheTitle() {
    McpSchema.CallToolResult r = call(null, "describe_api", args("name", "records.get"));

    assertThat(text(r))
        .endsWith(
            ",\"hints\":{\"read_only\":true,\"destructive\":false,\"idempotent\":false,"
                + "\"open_world\":true},\"title\":\"Get\"}");
    assertThat(structured(call(null, "describe_api", args("name", "records.delete"))))
        .doesNotContainKey("title");
  }

  @Test
  void aTruncatedSearchCarriesNextCursorAndTheNextPageFollowsIt() {
    Map<String, Object> first = structured(call(null, "search_api", args("query", "record")));
    assertThat(first.get("truncated")).isEqualTo(true);
    String cursor = (String) first.get("next_cursor");

    Map<String, Object> second =
        structured(call(null, "search_api", args("query", "record", "cursor", cursor)));

    assertThat(second.get("results")).isNotEqualTo(first.get("results"));
    assertThat(second).doesNotContainKey("next_cursor").containsEntry("truncated", false);
  }

  @Test
  void anInvalidCursorIsAToolError() {
    McpSchema.CallToolResult r =
        call(null, "search_api", args("query", "record", "cursor", "search.x.y"));

    assertThat(r.isError()).isTrue();
    assertThat(text(r)).isEqualTo("invalid cursor");
  }

  @Test
  void withoutElicitationExecuteAnswersWithTheTokenInStructuredContent() {
    McpSchema.CallToolResult r = call(FakeExchange.plain(), "execute", args("source", DELETE));

    assertThat(r.isError()).isTrue();
    assertThat(text(r))
        .startsWith("confirmation required: records.delete(name=\"web\") needs approval");
    @SuppressWarnings("unchecked")
    Map<String, Object> c = (Map<String, Object>) structured(r).get("confirmation");
    assertThat(c.keySet()).containsExactly("token", "capability", "arguments", "expires_at");
    assertThat(c)
        .containsEntry("capability", "records.delete")
        .containsEntry("arguments", "name=\"web\"");
    assertThat(text(r))
        .contains("\"" + c.get("token") + "\"")
        .contains((String) c.get("expires_at"));
  }

  @Test
  void executeAgainWithTheConfirmationRunsTheCall() {
    McpSchema.CallToolResult first = call(null, "execute", args("source", DELETE));
    @SuppressWarnings("unchecked")
    String token =
        (String) ((Map<String, Object>) structured(first).get("confirmation")).get("token");

    McpSchema.CallToolResult r =
        call(null, "execute", args("source", DELETE, "confirmation", token));

    assertThat(r.isError()).isFalse();
    assertThat(structured(r)).isEqualTo(Map.of("result", Map.of("name", "deleted web")));
    assertThat(text(call(null, "execute", args("source", DELETE, "confirmation", token))))
        .isEqualTo("invalid confirmation");
  }

  @Test
  void aClientWithFormElicitationIsAskedWithTheExactMessageAndSchema() {
    FakeExchange client =
        FakeExchange.eliciting(r -> answer(McpSchema.ElicitResult.Action.ACCEPT, true));

    McpSchema.CallToolResult r = call(client, "execute", args("source", DELETE));

    assertThat(structured(r)).isEqualTo(Map.of("result", Map.of("name", "deleted web")));
    McpSchema.ElicitFormRequest asked = (McpSchema.ElicitFormRequest) client.elicited.getFirst();
    assertThat(asked.message()).isEqualTo("Allow records.delete(name=\"web\")? Delete a record.");
    assertThat(asked.requestedSchema())
        .isEqualTo(
            Map.of(
                "type",
                "object",
                "properties",
                Map.of("confirm", Map.of("type", "boolean")),
                "required",
                List.of("confirm")));
  }

  @Test
  void aDeclineACancelOrConfirmFalseIsConfirmationDeclined() {
    for (McpSchema.ElicitResult a :
        List.of(
            answer(McpSchema.ElicitResult.Action.DECLINE, null),
            answer(McpSchema.ElicitResult.Action.CANCEL, null),
            answer(McpSchema.ElicitResult.Action.ACCEPT, false))) {
      McpSchema.CallToolResult r =
          call(FakeExchange.eliciting(x -> a), "execute", args("source", DELETE));

      assertThat(text(r)).as(a.toString()).isEqualTo("confirmation declined");
    }
  }

  @Test
  void aClientThatOnlyDeclaredUrlElicitationGetsAToken() {
    FakeExchange urlOnly =
        new FakeExchange(
            McpSchema.ClientCapabilities.builder().elicitation(false, true).build(),
            r -> answer(McpSchema.ElicitResult.Action.ACCEPT, true));

    McpSchema.CallToolResult r = call(urlOnly, "execute", args("source", DELETE));

    assertThat(text(r)).startsWith("confirmation required: ");
    assertThat(urlOnly.elicited).isEmpty();
  }

  static final String TWO_GETS =
      "def main():\n    return [records.get(name='a'), records.get(name='b')]\n";

  @Test
  void anExecuteWithAProgressTokenIsToldOfEachStageAndEachCompletedCall() {
    FakeExchange client = FakeExchange.plain();

    McpSchema.CallToolResult r =
        tools()
            .get("execute")
            .callHandler()
            .apply(
                client,
                new McpSchema.CallToolRequest(
                    "execute", args("source", TWO_GETS), Map.of("progressToken", "p-1")));

    assertThat(r.isError()).isFalse();
    assertThat(client.progress).allMatch(n -> n.progressToken().equals("p-1") && n.total() == null);
    assertThat(client.progress)
        .extracting(
            McpSchema.ProgressNotification::progress, McpSchema.ProgressNotification::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0.5, "records.get: fetching"),
            org.assertj.core.groups.Tuple.tuple(1.0, "records.get done"),
            org.assertj.core.groups.Tuple.tuple(1.5, "records.get: fetching"),
            org.assertj.core.groups.Tuple.tuple(2.0, "records.get done"));
  }

  @Test
  void withoutAProgressTokenNoProgressIsSent() {
    FakeExchange client = FakeExchange.plain();

    call(client, "execute", args("source", TWO_GETS));

    assertThat(client.progress).isEmpty();
  }

  @Test
  void theSdkMayWaitAsLongAsAPersonMay() {
    assertThat(CodeModeMcp.requestTimeout(server.limits()))
        .isGreaterThan(server.limits().maxConfirmationWait());
  }
}
