package dev.agentcompute.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/** A trivial MCP server for transport tests: one tool that reports the caller's subject. */
final class TestTools {
  private TestTools() {}

  static McpServerAssembly whoami() {
    return (specification, fixed) -> specification.serverInfo("test", "0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(whoamiTool(fixed)).build();
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
