package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Errors;
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
 * Reading what the Driver printed: its structured JSON (with image payloads removed, so agents get
 * screenshots only as URLs and results stay small) or the text a tool answered with.
 */
final class DriverResults {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private DriverResults() {}

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
