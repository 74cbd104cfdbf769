package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.FieldShape;
import dev.agentcompute.codemode.SearchResponse;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.protocol.JsonWriter;
import dev.agentcompute.codemode.protocol.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The MCP-visible JSON (Go encoding/json spelling) and the matching structured objects. */
final class McpJson {

  private McpJson() {}

  static Map<String, Object> search(SearchResponse r) {
    List<Object> results = new ArrayList<>();
    for (SearchResult s : r.results()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("signature", s.signature());
      m.put("summary", s.summary());
      results.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("results", results);
    out.put("truncated", r.truncated());
    if (r.nextCursor() != null) {
      out.put("next_cursor", r.nextCursor());
    }
    return out;
  }

  static Map<String, Object> describe(Description d) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", d.name());
    out.put("signature", d.signature());
    out.put("summary", d.summary());
    out.put("description", d.description());
    out.put("input", shapes(d.input()));
    out.put("output", shapes(d.output()));
    Map<String, Object> hints = new LinkedHashMap<>();
    hints.put("read_only", d.hints().readOnly());
    hints.put("destructive", d.hints().destructive());
    hints.put("idempotent", d.hints().idempotent());
    hints.put("open_world", d.hints().openWorld());
    out.put("hints", hints);
    if (!d.title().isEmpty()) {
      out.put("title", d.title());
    }
    return out;
  }

  private static List<Object> shapes(List<FieldShape> shapes) {
    List<Object> out = new ArrayList<>();
    for (FieldShape f : shapes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", f.name());
      m.put("type", f.type());
      m.put("required", f.required());
      out.add(m);
    }
    return out;
  }

  /** Serializes: LinkedHashMaps keep their order (records), other maps are sorted. */
  static String write(Object v) {
    try {
      return JsonWriter.write(v, JsonWriter.Spelling.MCP);
    } catch (Values.InvalidValue e) {
      throw new IllegalArgumentException("not a JSON value: " + e.getMessage(), e);
    }
  }
}
