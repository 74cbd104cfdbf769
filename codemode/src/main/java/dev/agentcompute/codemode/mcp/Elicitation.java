package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Confirmer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * Confirmation by MCP form elicitation (docs/reference/policy.md#confirmations): {@code
 * elicitation/create} with the message {@code Allow <name>(<args>)? <summary>} and the schema
 * {@code {confirm: boolean}}; only an accept with {@code confirm: true} approves.
 */
final class Elicitation {

  static final Map<String, Object> SCHEMA =
      Map.of(
          "type",
          "object",
          "properties",
          Map.of("confirm", Map.of("type", "boolean")),
          "required",
          List.of("confirm"));

  private Elicitation() {}

  /**
   * Whether the client declared form elicitation: {@code elicitation: {form: {}}}, or an empty
   * {@code elicitation: {}}, which means form (MCP 2025-11-25).
   */
  static boolean supportsForm(McpSchema.ClientCapabilities capabilities) {
    if (capabilities == null || capabilities.elicitation() == null) {
      return false;
    }
    McpSchema.ClientCapabilities.Elicitation e = capabilities.elicitation();
    return e.form() != null || e.url() == null;
  }

  /** A confirmer asking through {@code exchange}, or null when its client cannot be asked. */
  static Confirmer confirmer(McpSyncServerExchange exchange) {
    if (exchange == null || !supportsForm(exchange.getClientCapabilities())) {
      return null;
    }
    return (ctx, prompt) -> {
      McpSchema.ElicitResult r =
          exchange.createElicitation(
              McpSchema.ElicitRequest.builder(prompt.message(), SCHEMA).build());
      return r != null
          && r.action() == McpSchema.ElicitResult.Action.ACCEPT
          && r.content() != null
          && Boolean.TRUE.equals(r.content().get("confirm"));
    };
  }
}
