package dev.agentcompute.server.http;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON-RPC 2.0 and MCP shape of one posted message, checked before the MCP SDK sees it, so a
 * malformed message gets a JSON-RPC error instead of failing inside the SDK: {@code jsonrpc} is
 * {@code "2.0"}, a request or notification has a string {@code method}, a request's {@code id} is a
 * string or a number, {@code params} (when present) is an object, and the methods whose params are
 * required have them with the right member types.
 */
final class JsonRpcShape {
  /** Required string members of the params of methods that cannot work without them. */
  private static final Map<String, List<String>> REQUIRED =
      Map.of(
          McpSchema.METHOD_TOOLS_CALL, List.of("name"),
          McpSchema.METHOD_RESOURCES_READ, List.of("uri"),
          McpSchema.METHOD_RESOURCES_SUBSCRIBE, List.of("uri"),
          McpSchema.METHOD_RESOURCES_UNSUBSCRIBE, List.of("uri"),
          McpSchema.METHOD_PROMPT_GET, List.of("name"),
          McpSchema.METHOD_LOGGING_SET_LEVEL, List.of("level"));

  /** Optional members that, when present, must be objects. */
  private static final Map<String, List<String>> OBJECTS =
      Map.of(McpSchema.METHOD_TOOLS_CALL, List.of("arguments"), "*", List.of("_meta"));

  private JsonRpcShape() {}

  /** What is wrong with a message, and whether the answer is an error response to its id. */
  record Problem(int code, String message, Optional<Object> requestId) {
    static Problem invalidRequest(String message) {
      return new Problem(McpSchema.ErrorCodes.INVALID_REQUEST, message, Optional.empty());
    }
  }

  /** Empty when the message may go to the SDK. */
  static Optional<Problem> check(Object parsed) {
    if (!(parsed instanceof Map<?, ?> message)) {
      return Optional.of(Problem.invalidRequest("a JSON-RPC message must be a JSON object"));
    }
    if (!"2.0".equals(message.get("jsonrpc"))) {
      return Optional.of(Problem.invalidRequest("jsonrpc must be \"2.0\""));
    }
    boolean hasId = message.containsKey("id");
    Object id = message.get("id");
    if (hasId && !(id instanceof String || id instanceof Number)) {
      return Optional.of(Problem.invalidRequest("id must be a string or a number"));
    }
    if (!message.containsKey("method")) {
      boolean answer = message.containsKey("result") != message.containsKey("error");
      return hasId && answer
          ? Optional.empty()
          : Optional.of(
              Problem.invalidRequest(
                  "a JSON-RPC message needs a method, or an id with exactly one of result and"
                      + " error"));
    }
    if (!(message.get("method") instanceof String method)) {
      return Optional.of(Problem.invalidRequest("method must be a string"));
    }
    Optional<Object> answerTo = hasId ? Optional.of(id) : Optional.empty();
    return params(method, message).map(text -> invalidParams(text, answerTo));
  }

  private static Problem invalidParams(String message, Optional<Object> id) {
    return new Problem(McpSchema.ErrorCodes.INVALID_PARAMS, message, id);
  }

  /** The problem with a request's or notification's params, if any. */
  private static Optional<String> params(String method, Map<?, ?> message) {
    Object params = message.get("params");
    List<String> required = REQUIRED.getOrDefault(method, List.of());
    if (params == null) {
      return required.isEmpty()
          ? Optional.empty()
          : Optional.of(method + " requires params with " + String.join(", ", required));
    }
    if (!(params instanceof Map<?, ?> members)) {
      return Optional.of("params must be an object");
    }
    for (String name : required) {
      if (!(members.get(name) instanceof String)) {
        return Optional.of("params." + name + " must be a string");
      }
    }
    for (String name : objects(method)) {
      Object value = members.get(name);
      if (value != null && !(value instanceof Map)) {
        return Optional.of(
            name.equals("arguments") ? "arguments must be an object" : name + " must be an object");
      }
    }
    return Optional.empty();
  }

  private static List<String> objects(String method) {
    return OBJECTS.containsKey(method)
        ? java.util.stream.Stream.concat(OBJECTS.get(method).stream(), OBJECTS.get("*").stream())
            .toList()
        : OBJECTS.get("*");
  }
}
