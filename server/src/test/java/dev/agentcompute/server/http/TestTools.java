package dev.agentcompute.server.http;

import dev.agentcompute.server.mcp.McpServerAssembly;
import dev.agentcompute.server.mcp.TransportContextKeys;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * A trivial MCP server for transport tests: a tool that reports the caller's subject, and one that
 * answers after a pause (a slow call).
 */
public final class TestTools {
  private TestTools() {}

  public static McpServerAssembly whoami() {
    return (specification, fixed) ->
        specification
            .serverInfo("test", "0")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
            .tools(whoamiTool(fixed), pauseTool(), holdTool())
            .build();
  }

  /** Counts down when a {@code hold} call has started. */
  static volatile java.util.concurrent.CountDownLatch holding =
      new java.util.concurrent.CountDownLatch(1);

  /** How the last {@code hold} call ended: "cancelled" or "not cancelled". */
  static volatile java.util.concurrent.CompletableFuture<String> held =
      new java.util.concurrent.CompletableFuture<>();

  /** {@code hold}: waits up to 30 s for the transport to report its caller gone. */
  static McpServerFeatures.SyncToolSpecification holdTool() {
    var json = McpJsonDefaults.getMapper();
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name("hold")
            .description("Wait until the caller is gone")
            .inputSchema(json, "{\"type\":\"object\",\"properties\":{}}")
            .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              Object gone =
                  exchange
                      .transportContext()
                      .get(dev.agentcompute.codemode.mcp.CodeModeMcp.CANCELLATION_CONTEXT_KEY);
              holding.countDown();
              String outcome = "not cancelled";
              if (gone instanceof java.util.concurrent.CompletionStage<?> stage) {
                try {
                  stage.toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
                  outcome = "cancelled";
                } catch (Exception e) {
                  // not cancelled within 30 s
                }
              }
              held.complete(outcome);
              return McpSchema.CallToolResult.builder().addTextContent(outcome).build();
            })
        .build();
  }

  /** {@code pause(ms)}: answers {@code "done"} after {@code ms} milliseconds. */
  static McpServerFeatures.SyncToolSpecification pauseTool() {
    var json = McpJsonDefaults.getMapper();
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name("pause")
            .description("Answer after a pause")
            .inputSchema(
                json, "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}}}")
            .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              try {
                Thread.sleep(((Number) request.arguments().get("ms")).longValue());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return McpSchema.CallToolResult.builder().addTextContent("done").build();
            })
        .build();
  }

  public static McpServerFeatures.SyncToolSpecification whoamiTool(
      java.util.Optional<String> fixed) {
    var json = McpJsonDefaults.getMapper();
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name("whoami")
            .description("Report the subject")
            .inputSchema(
                json, "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")
            .build();
    var spec =
        McpServerFeatures.SyncToolSpecification.builder()
            .tool(tool)
            .callHandler(
                (exchange, request) -> {
                  Object subject =
                      fixed.isPresent()
                          ? fixed.get()
                          : exchange.transportContext().get(TransportContextKeys.SUBJECT);
                  return McpSchema.CallToolResult.builder()
                      .addTextContent(String.valueOf(subject))
                      .structuredContent(Map.of("subject", String.valueOf(subject)))
                      .build();
                })
            .build();
    return spec;
  }
}
