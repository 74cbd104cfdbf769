package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.FieldShape;
import dev.agentcompute.codemode.SearchResponse;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.protocol.GoJson;
import dev.agentcompute.codemode.protocol.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The MCP-visible JSON (Go encoding/json spelling) and the matching structured objects. */
final class McpJson {

    private McpJson() {
    }

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
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        switch (v) {
            case null -> b.append("null");
            case Boolean x -> b.append(x);
            case Long x -> b.append(x.longValue());
            case Double x -> b.append(GoJson.plainFloat(x));
            case String s -> GoJson.writeString(b, s);
            case List<?> l -> {
                b.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    write(b, l.get(i));
                }
                b.append(']');
            }
            case Map<?, ?> m -> {
                Map<?, ?> ordered = m;
                if (!(m instanceof LinkedHashMap)) {
                    TreeMap<String, Object> t = new TreeMap<>(Values::compareUtf8);
                    m.forEach((k, x) -> t.put((String) k, x));
                    ordered = t;
                }
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ordered.entrySet()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    GoJson.writeString(b, (String) e.getKey());
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            }
            default -> GoJson.writeString(b, String.valueOf(v));
        }
    }
}
