package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.ResourcePage;
import dev.agentcompute.codemode.ResourceRead;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Answers {@code resources/list}, {@code resources/templates/list} and {@code resources/read} per
 * caller (docs/reference/policy.md#resources). The MCP Java SDK lists resources globally, with no
 * cursor and no per-caller filter, so a transport routes these three methods here instead of to the
 * SDK session: stdio through {@link CodeModeMcp#serveStdio(dev.agentcompute.codemode.Server,
 * Resources, InvocationResolver)}, HTTP by calling {@link #handle} with the request's transport
 * context (the one that carries {@link Subject#TRANSPORT_CONTEXT_KEY}). Errors are JSON-RPC errors:
 * {@code -32002 Resource not found} (unknown or hidden), {@code -32002 resource not readable},
 * {@code -32602 invalid cursor}, and {@code -32603} with the CodeMode text otherwise.
 */
public final class ResourceRequests {

  /** The JSON-RPC methods {@link #handle} answers. */
  public static final Set<String> METHODS =
      Set.of("resources/list", "resources/templates/list", "resources/read");

  /** The {@code _meta} key of the warnings of a read of several items. */
  public static final String WARNINGS_META_KEY = "dev.agentcompute/warnings";

  private final Resources resources;
  private final InvocationResolver resolver;

  ResourceRequests(Resources resources, InvocationResolver resolver) {
    this.resources = Objects.requireNonNull(resources, "resources");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
  }

  /** Whether {@link #handle} answers {@code method}. */
  public static boolean handles(String method) {
    return METHODS.contains(method);
  }

  /** The response to {@code request} (one of {@link #METHODS}) for the caller of this transport. */
  public McpSchema.JSONRPCResponse handle(
      McpTransportContext transport, McpSchema.JSONRPCRequest request) {
    Context ctx = CallContexts.of(transport);
    try {
      Subject subject = CallContexts.subject(resolver, ctx);
      if (subject == null) {
        return error(request, McpSchema.ErrorCodes.INVALID_REQUEST, Failure.UNAUTHENTICATED.text());
      }
      Map<?, ?> params = request.params() instanceof Map<?, ?> m ? m : Map.of();
      Object result =
          switch (request.method()) {
            case "resources/list" -> list(ctx, subject, string(params, "cursor"));
            case "resources/templates/list" -> templates(ctx, subject, string(params, "cursor"));
            case "resources/read" -> {
              String uri = string(params, "uri");
              if (uri == null) {
                yield null;
              }
              yield read(ctx, subject, uri);
            }
            default ->
                throw new IllegalArgumentException("not a resources method: " + request.method());
          };
      if (result == null) {
        return error(request, McpSchema.ErrorCodes.INVALID_PARAMS, "uri is required");
      }
      return McpSchema.JSONRPCResponse.result(request.id(), result);
    } catch (CodeModeException e) {
      return error(request, code(e.failure()), e.clientText());
    } catch (Throwable t) {
      return error(request, McpSchema.ErrorCodes.INTERNAL_ERROR, Failure.INTERNAL.text());
    } finally {
      ctx.cancel();
    }
  }

  private McpSchema.ListResourcesResult list(Context ctx, Subject subject, String cursor)
      throws CodeModeException {
    ResourcePage page = resources.list(ctx, subject, cursor);
    List<McpSchema.Resource> out = new ArrayList<>();
    for (ResourceItem item : page.items()) {
      out.add(
          McpSchema.Resource.builder(item.uri(), item.name())
              .title(blankToNull(item.title()))
              .description(blankToNull(item.description()))
              .mimeType(blankToNull(item.mimeType()))
              .build());
    }
    return new McpSchema.ListResourcesResult(out, page.nextCursor());
  }

  private McpSchema.ListResourceTemplatesResult templates(
      Context ctx, Subject subject, String cursor) throws CodeModeException {
    if (cursor != null && !cursor.isEmpty()) {
      // Templates fit one page, so no cursor of this list exists.
      throw CodeModeException.of(Failure.INVALID_CURSOR);
    }
    List<McpSchema.ResourceTemplate> out = new ArrayList<>();
    for (ResourceDescription d : resources.templates(ctx, subject)) {
      out.add(
          McpSchema.ResourceTemplate.builder(d.uriTemplate(), d.name())
              .title(blankToNull(d.title()))
              .description(blankToNull(d.description()))
              .mimeType(blankToNull(d.mimeType()))
              .build());
    }
    return new McpSchema.ListResourceTemplatesResult(out, null);
  }

  private McpSchema.ReadResourceResult read(Context ctx, Subject subject, String uri)
      throws CodeModeException {
    ResourceRead read = resources.read(ctx, subject, uri);
    List<McpSchema.ResourceContents> contents = new ArrayList<>();
    for (ResourceRead.Content c : read.contents()) {
      String mime = blankToNull(c.item().mimeType());
      contents.add(
          switch (c.body()) {
            case ResourceBody.Text t ->
                new McpSchema.TextResourceContents(c.item().uri(), mime, t.text());
            case ResourceBody.Blob b ->
                new McpSchema.BlobResourceContents(
                    c.item().uri(), mime, Base64.getEncoder().encodeToString(b.bytes()));
          });
    }
    Map<String, Object> meta =
        read.warnings().isEmpty() ? null : Map.of(WARNINGS_META_KEY, read.warnings());
    return new McpSchema.ReadResourceResult(contents, meta);
  }

  private static int code(Failure f) {
    return switch (f) {
      case RESOURCE_NOT_FOUND, RESOURCE_NOT_READABLE -> McpSchema.ErrorCodes.RESOURCE_NOT_FOUND;
      case INVALID_CURSOR -> McpSchema.ErrorCodes.INVALID_PARAMS;
      case UNAUTHENTICATED -> McpSchema.ErrorCodes.INVALID_REQUEST;
      default -> McpSchema.ErrorCodes.INTERNAL_ERROR;
    };
  }

  private static McpSchema.JSONRPCResponse error(
      McpSchema.JSONRPCRequest request, int code, String message) {
    return McpSchema.JSONRPCResponse.error(
        request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null));
  }

  private static String string(Map<?, ?> params, String key) {
    return params.get(key) instanceof String s ? s : null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
