package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.binding.GoQuote;
import dev.agentcompute.codemode.protocol.JsonWriter;
import dev.agentcompute.codemode.protocol.Values;
import java.util.Map;
import java.util.TreeMap;

/** How a call is shown to the person asked to confirm it: {@code key="value", n=1} in key order. */
final class ConfirmationText {

  private ConfirmationText() {}

  /** Canonical arguments, strings Go-quoted, nested values as JSON, at most 256 bytes. */
  static String arguments(Map<String, Object> canonical) {
    StringBuilder b = new StringBuilder();
    TreeMap<String, Object> sorted = new TreeMap<>(Values::compareUtf8);
    sorted.putAll(canonical);
    for (Map.Entry<String, Object> e : sorted.entrySet()) {
      if (!b.isEmpty()) {
        b.append(", ");
      }
      b.append(e.getKey()).append('=').append(value(e.getValue()));
    }
    // Quoting already escaped what is not printable; sanitize only bounds the size.
    return AgentError.sanitize(b.toString());
  }

  private static String value(Object v) {
    if (v instanceof String s) {
      return GoQuote.quote(s);
    }
    try {
      return JsonWriter.write(v, JsonWriter.Spelling.MCP);
    } catch (Values.InvalidValue e) {
      return "?";
    }
  }
}
