package dev.agentcompute.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * A trivial MCP server for transport tests: a tool that reports the caller's subject, and one that
 * answers after a pause (a slow call).
 */
final class TestTools {
  private TestTools() {}

  static McpServerAssembly whoami() {
    return (specification, fixed) -> specification.serverInfo("test", "0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(whoamiTool(fixed), pauseTool()).build();
  }

  /** {@code pause(ms)}: answers {@code "done"} after {@code ms} milliseconds. */
  static McpServerFeatures.SyncToolSpecification pauseTool() {
    var json = McpJsonDefaults.getMapper();
    McpSchema.Tool tool = McpSchema.Tool.builder().name("pause").description("Answer after a pause")
        .inputSchema(json, "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}}}")
        .build();
    return McpServerFeatures.SyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, request) -> {
          try {
            Thread.sleep(((Number) request.arguments().get("ms")).longValue());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return McpSchema.CallToolResult.builder().addTextContent("done").build();
        }).build();
  }

  static McpServerFeatures.SyncToolSpecification whoamiTool(java.util.Optional<String> fixed) {
    var json = McpJsonDefaults.getMapper();
    McpSchema.Tool tool = McpSchema.Tool.builder().name("whoami").description("Report the subject")
        .inputSchema(json, "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")
        .build();
    var spec = McpServerFeatures.SyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, request) -> {
          Object subject = fixed.isPresent() ? fixed.get()
              : exchange.transportContext().get(TransportContextKeys.SUBJECT);
          return McpSchema.CallToolResult.builder().addTextContent(String.valueOf(subject))
              .structuredContent(Map.of("subject", String.valueOf(subject))).build();
        }).build();
    return spec;
  }
}
