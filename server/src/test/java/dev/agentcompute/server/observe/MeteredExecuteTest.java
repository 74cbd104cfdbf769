package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Failure;
import dev.agentcompute.server.http.TestTools;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredExecuteTest {
  private static McpSchema.CallToolResult error(String text) {
    return McpSchema.CallToolResult.builder().isError(true).addTextContent(text).build();
  }

  @Test
  void outcomeIsTheFailureClassWithoutDetailInTheNativeCallsVocabulary() {
    assertThat(
            Outcomes.of(
                McpSchema.CallToolResult.builder().addTextContent("{}").isError(false).build()))
        .isEqualTo("ok");
    assertThat(Outcomes.of(error("capability failed: sandbox \"x\" has expired")))
        .isEqualTo("capability_failure")
        .isEqualTo(Outcomes.of(Failure.CAPABILITY_FAILURE));
    assertThat(Outcomes.of(error("invalid program: line 1"))).isEqualTo("invalid_program");
    assertThat(Outcomes.of(error("resource limit exceeded"))).isEqualTo("resource_limit");
    assertThat(Outcomes.of(error("context canceled"))).isEqualTo("canceled");
    assertThat(Outcomes.of(error("something no failure says"))).isEqualTo("internal");
  }

  @Test
  void countsExecutionsByOutcomeAndLeavesOtherToolsAlone() {
    ServerMetrics metrics = ServerMetrics.inMemory();
    MeteredExecute metered = new MeteredExecute(metrics, new AuditLog(metrics));
    McpSchema.Tool executeTool =
        McpSchema.Tool.builder()
            .name("execute")
            .inputSchema(new McpSchema.JsonSchema("object", null, null, null, null, null))
            .build();
    var execute =
        McpServerFeatures.SyncToolSpecification.builder()
            .tool(executeTool)
            .callHandler(
                (ex, req) -> {
                  assertThat(metered.running()).isEqualTo(1);
                  return error("permission denied");
                })
            .build();
    var other = TestTools.whoamiTool(java.util.Optional.of("x"));
    List<McpServerFeatures.SyncToolSpecification> wrapped =
        metered.wrap(List.of(execute, other), java.util.Optional.empty());
    assertThat(wrapped.get(1)).isSameAs(other);
    double before = metrics.count("agentcompute.executions", "outcome", "permission_denied");
    wrapped.get(0).callHandler().apply(null, new McpSchema.CallToolRequest("execute", null, null));
    assertThat(metrics.count("agentcompute.executions", "outcome", "permission_denied"))
        .isEqualTo(before + 1);
    assertThat(metered.running()).isZero();
  }
}
