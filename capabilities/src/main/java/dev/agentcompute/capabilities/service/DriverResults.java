package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Errors;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reading what the Driver answered: its structured JSON (with image payloads removed, so agents get
 * screenshots only as URLs and results stay small) or the text a tool answered with, printed by the
 * CLI (Linux, macOS) or returned over MCP (Windows).
 */
final class DriverResults {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The Driver's own success text, alone or followed by whitespace and more. */
  private static final String NATIVE_OK = "[OK]";

  private DriverResults() {}

  /**
   * What a tool's answer means for desktop.call: its {@code ok}, {@code summary} and {@code
   * result}.
   */
  record Outcome(boolean ok, String summary, String result) {}

  /**
   * A tool's answer as text (the CLI's stdout after exit 0, or MCP text content): a JSON object is
   * success, its {@link #summary} and the object without image payloads; anything else is a tool
   * error, its first line the summary and the whole text the result.
   */
  static Outcome text(String tool, String text) {
    Optional<ObjectNode> structured = object(text.getBytes(StandardCharsets.UTF_8));
    if (structured.isPresent()) {
      ObjectNode result = (ObjectNode) strip(structured.get());
      return new Outcome(true, summary(tool, result), compact(result));
    }
    return new Outcome(false, DesktopDriver.firstLine(text), text);
  }

  /**
   * An MCP {@code tools/call} result (docs/reference/capabilities.md#desktops, Windows): {@code
   * isError} is a failure summarized by its text; structured content (an object or a list) is
   * success, summarized as {@code structured content}, its JSON without image payloads the result;
   * the Driver's native {@code [OK]} text is success; other text reads as {@link #text} does.
   */
  static Outcome mcp(String tool, McpSchema.CallToolResult answer) {
    StringBuilder joined = new StringBuilder();
    for (McpSchema.Content content :
        answer.content() == null ? List.<McpSchema.Content>of() : answer.content()) {
      if (content instanceof McpSchema.TextContent text && text.text() != null) {
        joined.append(text.text());
      }
    }
    String text = joined.toString().strip();
    if (Boolean.TRUE.equals(answer.isError())) {
      return new Outcome(false, text, "");
    }
    Object structured = answer.structuredContent();
    if (structured instanceof Map<?, ?> || structured instanceof List<?>) {
      return new Outcome(true, "structured content", compact(strip(JSON.valueToTree(structured))));
    }
    if (isNativeOk(text)) {
      return new Outcome(true, DesktopDriver.firstLine(text), text);
    }
    return text(tool, text);
  }

  private static boolean isNativeOk(String text) {
    return text.equals(NATIVE_OK)
        || (text.startsWith(NATIVE_OK) && Character.isWhitespace(text.charAt(NATIVE_OK.length())));
  }

  /** A structured result's {@code summary}, {@code message} or {@code status}, else its size. */
  private static String summary(String tool, ObjectNode result) {
    for (String field : List.of("summary", "message", "status")) {
      if (result.path(field).isString()) {
        return DesktopDriver.firstLine(result.path(field).asString());
      }
    }
    return tool + " returned " + result.size() + " fields";
  }

  /** The JSON object {@code text}, or empty when it is text (a tool's text answer or error). */
  static Optional<ObjectNode> object(byte[] stdout) {
    try {
      JsonNode node = JSON.readTree(new String(stdout, StandardCharsets.UTF_8));
      return node != null && node.isObject() ? Optional.of((ObjectNode) node) : Optional.empty();
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  /** {@code args}: a JSON object, or the rule's text. */
  static ObjectNode requireObject(String args) {
    try {
      JsonNode node = JSON.readTree(args);
      if (node != null && node.isObject()) {
        return (ObjectNode) node;
      }
    } catch (JacksonException e) {
      // reported below, like any other non-object
    }
    throw Errors.of("args must be a JSON object");
  }

  static String compact(JsonNode node) {
    return JSON.writeValueAsString(node);
  }

  /**
   * Removes image payloads in place: members named like base64 ({@code *b64*}, {@code *base64*}),
   * any string that is a {@code data:image/} URL, and the {@code data} of MCP image content.
   */
  static JsonNode strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      boolean imageContent = "image".equals(object.path("type").asString(""));
      List<String> drop = new ArrayList<>();
      for (Map.Entry<String, JsonNode> member : object.properties()) {
        String key = member.getKey().toLowerCase(Locale.ROOT);
        if (key.contains("b64")
            || key.contains("base64")
            || (imageContent && key.equals("data"))
            || isDataImage(member.getValue())) {
          drop.add(member.getKey());
        } else {
          strip(member.getValue());
        }
      }
      object.remove(drop);
    } else if (node instanceof ArrayNode array) {
      for (int i = array.size() - 1; i >= 0; i--) {
        if (isDataImage(array.get(i))) {
          array.remove(i);
        } else {
          strip(array.get(i));
        }
      }
    }
    return node;
  }

  private static boolean isDataImage(JsonNode value) {
    return value.isString() && value.asString().regionMatches(true, 0, "data:image/", 0, 11);
  }
}
