package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.Execution;
import dev.agentcompute.codemode.ExecutionObserver;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.PendingConfirmation;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The three tool specifications and their request flow: resolve, call the service, project. */
final class Tools {

  private Tools() {}

  /** One tool's service call, given the request's context, subject and arguments. */
  interface Call {
    Map<String, Object> run(
        Context ctx,
        Subject subject,
        Map<String, Object> arguments,
        McpSyncServerExchange exchange,
        McpSchema.CallToolRequest request)
        throws CodeModeException;
  }

  static List<McpServerFeatures.SyncToolSpecification> of(
      Server service, InvocationResolver resolver) {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    return List.of(
        tool(
            json,
            "search_api",
            ToolContracts.SEARCH_DESCRIPTION,
            ToolContracts.SEARCH_INPUT,
            ToolContracts.SEARCH_OUTPUT,
            ToolContracts.DISCOVERY,
            resolver,
            false,
            (ctx, subject, args, exchange, request) ->
                McpJson.search(
                    service.search(ctx, subject, string(args, "query"), string(args, "cursor")))),
        tool(
            json,
            "describe_api",
            ToolContracts.DESCRIBE_DESCRIPTION,
            ToolContracts.DESCRIBE_INPUT,
            ToolContracts.DESCRIBE_OUTPUT,
            ToolContracts.DISCOVERY,
            resolver,
            false,
            (ctx, subject, args, exchange, request) ->
                McpJson.describe(service.describe(ctx, subject, string(args, "name")))),
        tool(
            json,
            "execute",
            service.agentGuidance()
                ? ToolContracts.EXECUTE_DESCRIPTION_GUIDED
                : ToolContracts.EXECUTE_DESCRIPTION,
            ToolContracts.EXECUTE_INPUT,
            ToolContracts.EXECUTE_OUTPUT,
            ToolContracts.EXECUTE,
            resolver,
            true,
            (ctx, subject, args, exchange, request) -> {
              Execution execution =
                  Execution.of(string(args, "source"))
                      .withConfirmation(string(args, "confirmation"))
                      .withConfirmer(Elicitation.confirmer(exchange));
              ExecutionObserver observer = ExecutionObserver.NONE;
              if (exchange != null && request.progressToken() != null) {
                observer = new McpProgress(exchange, request.progressToken());
              }
              if (exchange != null
                  && exchange.transportContext() != null
                  && exchange.transportContext().get(CodeModeMcp.OBSERVER_CONTEXT_KEY)
                      instanceof ExecutionObserver host) {
                observer = ExecutionObserver.both(observer, host);
              }
              if (observer != ExecutionObserver.NONE) {
                execution = execution.withObserver(observer);
              }
              Map<String, Object> out = new LinkedHashMap<>();
              out.put("result", service.execute(ctx, subject, execution));
              return out;
            }));
  }

  private static String string(Map<String, Object> args, String property) {
    return args != null && args.get(property) instanceof String s ? s : "";
  }

  private static McpServerFeatures.SyncToolSpecification tool(
      McpJsonMapper json,
      String name,
      String description,
      String inputSchema,
      String outputSchema,
      McpSchema.ToolAnnotations annotations,
      InvocationResolver resolver,
      boolean identified,
      Call call) {
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name(name)
            .description(description)
            .inputSchema(json, inputSchema)
            .outputSchema(json, outputSchema)
            .annotations(annotations)
            .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              Context scope =
                  CallContexts.of(exchange == null ? null : exchange.transportContext());
              // An execute's id is made before anything can fail, so every answer carries it.
              String id = identified ? idOf(exchange) : null;
              Context ctx = id == null ? scope : scope.withValue(ExecuteIds.KEY, id);
              try {
                return identify(answer(ctx, resolver, call, exchange, request), id);
              } finally {
                scope.cancel();
              }
            })
        .build();
  }

  private static McpSchema.CallToolResult answer(
      Context ctx,
      InvocationResolver resolver,
      Call call,
      McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    try {
      Subject subject = CallContexts.subject(resolver, ctx);
      if (subject == null) {
        return error(Failure.UNAUTHENTICATED.text());
      }
      Map<String, Object> value = call.run(ctx, subject, request.arguments(), exchange, request);
      return McpSchema.CallToolResult.builder()
          .addTextContent(McpJson.write(value))
          .structuredContent(value)
          .isError(false)
          .build();
    } catch (CodeModeException e) {
      return e.pendingConfirmation()
          .map(p -> confirmationRequired(e.clientText(), p))
          .orElseGet(() -> error(e.clientText()));
    } catch (Throwable t) {
      return error(Failure.INTERNAL.text());
    }
  }

  /**
   * The execute's id: the one its host gave the request in the transport context under {@link
   * ExecuteIds#META_KEY} (so the host's own records of it agree), or a new one.
   */
  private static String idOf(McpSyncServerExchange exchange) {
    return exchange != null
            && exchange.transportContext() != null
            && exchange.transportContext().get(ExecuteIds.META_KEY) instanceof String given
            && given.startsWith("ex-")
        ? given
        : ExecuteIds.next();
  }

  /** {@code result} with the execute's id in its {@code _meta}; unchanged without an id. */
  private static McpSchema.CallToolResult identify(McpSchema.CallToolResult result, String id) {
    if (id == null) {
      return result;
    }
    Map<String, Object> meta = new LinkedHashMap<>();
    if (result.meta() != null) {
      meta.putAll(result.meta());
    }
    meta.put(ExecuteIds.META_KEY, id);
    return new McpSchema.CallToolResult(
        result.content(), result.isError(), result.structuredContent(), meta);
  }

  private static McpSchema.CallToolResult error(String text) {
    return McpSchema.CallToolResult.builder().isError(true).addTextContent(text).build();
  }

  /**
   * The answer when a call needs approval and nobody could be asked
   * (docs/reference/policy.md#confirmations, "Otherwise"): the text, and the token in structured
   * content.
   */
  private static McpSchema.CallToolResult confirmationRequired(String text, PendingConfirmation p) {
    Map<String, Object> confirmation = new LinkedHashMap<>();
    confirmation.put("token", p.token());
    confirmation.put("capability", p.capability());
    confirmation.put("arguments", p.arguments());
    confirmation.put("expires_at", DateTimeFormatter.ISO_INSTANT.format(p.expiresAt()));
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("confirmation", confirmation);
    return McpSchema.CallToolResult.builder()
        .isError(true)
        .addTextContent(text)
        .structuredContent(structured)
        .build();
  }
}
