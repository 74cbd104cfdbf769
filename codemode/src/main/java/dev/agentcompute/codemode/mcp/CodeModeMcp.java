package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Exposes a CodeMode {@link Server} as exactly three MCP tools (search_api, describe_api,
 * execute) on the MCP Java SDK. The host owns transport, authentication and lifecycle.
 */
public final class CodeModeMcp {

    /**
     * Key under which a transport may put a {@link CompletionStage} in the {@link McpTransportContext}
     * of a tool call that completes when the caller is gone (an HTTP client that disconnected): the
     * call's {@link Context} is then cancelled, as Go cancels a request's context, so an execution
     * ends with {@code context canceled} and its worker is killed instead of running on for nobody.
     */
    public static final String CANCELLATION_CONTEXT_KEY = "dev.agentcompute.codemode.cancellation";

    static final String SEARCH_DESCRIPTION = "Search enabled capabilities using task, resource, or exact-name vocabulary. "
            + "Results are relevance-ranked. Pass the exact returned name to describe_api. If truncated is true and no "
            + "result fits, submit a more specific task/resource query.";
    static final String DESCRIBE_DESCRIPTION = "Describe one enabled capability by the exact name returned by search_api, "
            + "without whitespace or case changes.";
    static final String EXECUTE_DESCRIPTION = "Execute one Starlark program that defines def main(): with zero arguments, "
            + "calls only names confirmed through search_api and describe_api inside main, and returns main's final "
            + "result. Standard Starlark builtins plus sum(iterable), json.decode/encode/indent, and math.* are directly "
            + "available without import. import, while, f-strings, filter, and map are unavailable; load is disabled; "
            + "print is discarded.";

    private static final String FIELD = "{\"type\":\"object\",\"required\":[\"name\",\"type\",\"required\"],"
            + "\"additionalProperties\":false,\"properties\":{\"name\":{\"type\":\"string\"},\"type\":{\"type\":\"string\"},"
            + "\"required\":{\"type\":\"boolean\"}}}";
    static final String SEARCH_OUTPUT = "{\"type\":\"object\",\"required\":[\"results\",\"truncated\"],"
            + "\"additionalProperties\":false,\"properties\":{\"results\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
            + "\"required\":[\"name\",\"signature\",\"summary\"],\"additionalProperties\":false,\"properties\":{\"name\":"
            + "{\"type\":\"string\"},\"signature\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"}}}},\"truncated\":"
            + "{\"type\":\"boolean\"}}}";
    static final String DESCRIBE_OUTPUT = "{\"type\":\"object\",\"required\":[\"name\",\"signature\",\"summary\","
            + "\"description\",\"input\",\"output\"],\"additionalProperties\":false,\"properties\":{\"name\":{\"type\":\"string\"},"
            + "\"signature\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"},\"description\":{\"type\":\"string\"},"
            + "\"input\":{\"type\":\"array\",\"items\":" + FIELD + "},\"output\":{\"type\":\"array\",\"items\":" + FIELD + "}}}";
    static final String EXECUTE_OUTPUT = "{\"type\":\"object\",\"required\":[\"result\"],\"additionalProperties\":false,"
            + "\"properties\":{\"result\":{}}}";

    private CodeModeMcp() {
    }

    private static String input(String property) {
        return "{\"type\":\"object\",\"required\":[\"" + property + "\"],\"additionalProperties\":false,"
                + "\"properties\":{\"" + property + "\":{\"type\":\"string\"}}}";
    }

    /** The three tool specifications, for any SDK transport. */
    public static List<McpServerFeatures.SyncToolSpecification> tools(Server service, InvocationResolver resolver) {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(resolver, "resolver");
        McpJsonMapper json = McpJsonDefaults.getMapper();
        return List.of(
                tool(json, "search_api", SEARCH_DESCRIPTION, "query", SEARCH_OUTPUT, resolver,
                        (ctx, subject, arg) -> McpJson.search(service.search(ctx, subject, arg))),
                tool(json, "describe_api", DESCRIBE_DESCRIPTION, "name", DESCRIBE_OUTPUT, resolver,
                        (ctx, subject, arg) -> McpJson.describe(service.describe(ctx, subject, arg))),
                tool(json, "execute", EXECUTE_DESCRIPTION, "source", EXECUTE_OUTPUT, resolver, (ctx, subject, arg) -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("result", service.execute(ctx, subject, arg));
                    return out;
                }));
    }

    /** Serves {@code service} over this process's stdin/stdout until stdin closes; logs go to stderr. */
    public static McpSyncServer serveStdio(Server service, InvocationResolver resolver) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        return McpServer.sync(new StdioServerTransportProvider(json)).serverInfo("codemode", "2")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).logging().build())
                .tools(tools(service, resolver)).build();
    }

    interface Call {
        Map<String, Object> run(Context ctx, Subject subject, String argument) throws CodeModeException;
    }

    private static McpServerFeatures.SyncToolSpecification tool(McpJsonMapper json, String name, String description,
            String property, String outputSchema, InvocationResolver resolver, Call call) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
                .inputSchema(json, input(property)).outputSchema(json, outputSchema).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Context ctx = Context.background().withCancel();
            try {
                McpTransportContext transport = exchange == null ? null : exchange.transportContext();
                if (transport != null && transport.get(Subject.TRANSPORT_CONTEXT_KEY) instanceof Subject s) {
                    ctx = s.in(ctx);
                }
                if (transport != null && transport.get(CANCELLATION_CONTEXT_KEY) instanceof CompletionStage<?> gone) {
                    Context callContext = ctx;
                    gone.whenComplete((ignored, failure) -> callContext.cancel());
                }
                Subject subject;
                try {
                    subject = resolver.resolve(ctx);
                } catch (RuntimeException | Error bug) {
                    throw bug; // a resolver bug, as a Go panic: internal failure (below)
                } catch (Exception refused) {
                    subject = null; // the resolver's answer "not authenticated", as a Go error
                }
                if (subject == null || !subject.isAuthenticated()) {
                    return error(Failure.UNAUTHENTICATED.text());
                }
                Object arg = request.arguments() == null ? null : request.arguments().get(property);
                Map<String, Object> value = call.run(ctx, subject, arg instanceof String s ? s : "");
                return McpSchema.CallToolResult.builder().addTextContent(McpJson.write(value)).structuredContent(value)
                        .isError(false).build();
            } catch (CodeModeException e) {
                return error(e.clientText());
            } catch (Throwable t) {
                return error(Failure.INTERNAL.text());
            } finally {
                ctx.cancel();
            }
        }).build();
    }

    private static McpSchema.CallToolResult error(String text) {
        return McpSchema.CallToolResult.builder().isError(true).addTextContent(text).build();
    }
}
