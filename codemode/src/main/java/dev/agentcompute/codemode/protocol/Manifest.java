package dev.agentcompute.codemode.protocol;

import dev.agentcompute.codemode.binding.Names;
import dev.agentcompute.codemode.binding.TypeNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The capability list a worker needs: id, dotted name and input shape as a post-order node arena
 * (every child index is lower than its parent's, so the graph is acyclic by construction).
 */
public final class Manifest {

  /** One enabled capability as the worker sees it. */
  public record Item(String id, String name, TypeNode.Struct input) {}

  private Manifest() {}

  public static void write(StringBuilder b, List<Item> items) {
    b.append('[');
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      Item item = items.get(i);
      List<String> nodes = new ArrayList<>();
      int root = node(item.input(), nodes);
      b.append("{\"id\":");
      GoJson.writeString(b, item.id());
      b.append(",\"name\":");
      GoJson.writeString(b, item.name());
      b.append(",\"input\":{\"root\":")
          .append(root)
          .append(",\"nodes\":[")
          .append(String.join(",", nodes))
          .append("]}}");
    }
    b.append(']');
  }

  private static int node(TypeNode n, List<String> nodes) {
    StringBuilder b = new StringBuilder("{\"kind\":");
    // instanceof, not a pattern switch: the worker path generates no classes at start
    // (WorkerPathTest).
    if (n instanceof TypeNode.Str s) {
      b.append("\"str\"");
    } else if (n instanceof TypeNode.Bool x) {
      b.append("\"bool\"");
    } else if (n instanceof TypeNode.Int i) {
      b.append("\"int\"");
      if (i.min() != 0) {
        b.append(",\"int_min\":").append(i.min());
      }
      if (i.max() != 0) {
        b.append(",\"int_max\":").append(i.max());
      }
    } else if (n instanceof TypeNode.Flt f) {
      b.append(f.float32() ? "\"float\",\"float32\":true" : "\"float\"");
    } else if (n instanceof TypeNode.ListOf l) {
      b.append("\"list\",\"elem\":").append(node(l.elem(), nodes));
    } else if (n instanceof TypeNode.DictOf d) {
      b.append("\"dict\",\"elem\":").append(node(d.elem(), nodes));
    } else if (n instanceof TypeNode.Opt o) {
      b.append("\"optional\",\"elem\":").append(node(o.elem(), nodes));
    } else if (n instanceof TypeNode.Struct s) {
      List<String> fields = new ArrayList<>();
      for (TypeNode.Field f : s.fields()) {
        StringBuilder fb = new StringBuilder("{\"name\":");
        GoJson.writeString(fb, f.name());
        fb.append(",\"node\":").append(node(f.type(), nodes)).append('}');
        fields.add(fb.toString());
      }
      b.append("\"struct\"");
      if (!fields.isEmpty()) {
        b.append(",\"fields\":[").append(String.join(",", fields)).append(']');
      }
    }
    nodes.add(b.append('}').toString());
    return nodes.size() - 1;
  }

  /** Decodes and validates a manifest (both sides apply the same rules). */
  public static List<Item> read(Object json) throws ProtocolException {
    if (!(json instanceof List<?> list)) {
      throw new ProtocolException("manifest must be an array");
    }
    List<Item> items = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (Object o : list) {
      Map<String, Object> m =
          Frames.object(
              o, "manifest entry", Set.of("id", "name", "input"), Set.of("id", "name", "input"));
      String id = Frames.string(m, "id");
      String name = Frames.string(m, "name");
      if (id.isEmpty()
          || dev.agentcompute.codemode.binding.GoStrings.hasSurroundingSpace(id)
          || !ids.add(id)) {
        throw new ProtocolException("invalid manifest id");
      }
      if (Names.capabilityNameProblem(name) != null || !names.add(name)) {
        throw new ProtocolException("invalid manifest name");
      }
      Map<String, Object> input =
          Frames.object(m.get("input"), "input", Set.of("root", "nodes"), Set.of("root", "nodes"));
      if (!(input.get("nodes") instanceof List<?> rawNodes)) {
        throw new ProtocolException("nodes must be an array");
      }
      List<TypeNode> built = new ArrayList<>();
      for (Object rn : rawNodes) {
        built.add(decodeNode(rn, built));
      }
      long root = Frames.integer(input, "root");
      if (root < 0
          || root >= built.size()
          || !(built.get((int) root) instanceof TypeNode.Struct s)) {
        throw new ProtocolException("manifest root must be a struct");
      }
      for (TypeNode.Field f : s.fields()) {
        if (!Names.isIdentifier(f.name())) {
          throw new ProtocolException("root field names must be identifiers");
        }
      }
      items.add(new Item(id, name, s));
    }
    for (String n : names) {
      String[] segs = n.split("\\.");
      StringBuilder p = new StringBuilder(segs[0]);
      for (int i = 1; i < segs.length - 1; i++) {
        p.append('.').append(segs[i]);
        if (names.contains(p.toString())) {
          throw new ProtocolException("manifest namespace collision");
        }
      }
    }
    return items;
  }

  private static TypeNode decodeNode(Object o, List<TypeNode> built) throws ProtocolException {
    Map<String, Object> m =
        Frames.object(
            o,
            "node",
            Set.of("kind", "elem", "fields", "int_min", "int_max", "float32"),
            Set.of("kind"));
    String kind = Frames.string(m, "kind");
    boolean hasBounds = m.containsKey("int_min") || m.containsKey("int_max");
    if (hasBounds && !kind.equals("int")) {
      throw new ProtocolException("bounds only on int");
    }
    if (m.containsKey("float32") && !kind.equals("float")) {
      throw new ProtocolException("float32 only on float");
    }
    boolean needsElem = kind.equals("list") || kind.equals("dict") || kind.equals("optional");
    if (m.containsKey("elem") != needsElem || (m.containsKey("fields") && !kind.equals("struct"))) {
      throw new ProtocolException("invalid node members");
    }
    TypeNode elem = null;
    if (needsElem) {
      long e = Frames.integer(m, "elem");
      if (e < 0 || e >= built.size()) {
        throw new ProtocolException("node index out of order");
      }
      elem = built.get((int) e);
    }
    return switch (kind) {
      case "str" -> new TypeNode.Str();
      case "bool" -> new TypeNode.Bool();
      case "int" -> {
        long min = m.containsKey("int_min") ? Frames.integer(m, "int_min") : 0;
        long max = m.containsKey("int_max") ? Frames.integer(m, "int_max") : 0;
        if (min > max) {
          throw new ProtocolException("invalid int bounds");
        }
        yield new TypeNode.Int(min, max, TypeNode.IntRepr.NONE);
      }
      case "float" -> {
        if (m.containsKey("float32") && !Boolean.TRUE.equals(m.get("float32"))) {
          throw new ProtocolException("float32 must be true when present");
        }
        yield new TypeNode.Flt(m.containsKey("float32"));
      }
      case "list" -> new TypeNode.ListOf(elem, false);
      case "dict" -> new TypeNode.DictOf(elem);
      case "optional" -> {
        if (elem instanceof TypeNode.Opt) {
          throw new ProtocolException("optional may not wrap optional");
        }
        yield new TypeNode.Opt(elem, TypeNode.OptRepr.NONE);
      }
      case "struct" -> {
        List<TypeNode.Field> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (m.containsKey("fields")) {
          if (!(m.get("fields") instanceof List<?> fl)) {
            throw new ProtocolException("fields must be an array");
          }
          for (Object fo : fl) {
            Map<String, Object> f =
                Frames.object(fo, "field", Set.of("name", "node"), Set.of("name", "node"));
            String name = Frames.string(f, "name");
            long idx = Frames.integer(f, "node");
            if (!Names.isJsonName(name) || !seen.add(name) || idx < 0 || idx >= built.size()) {
              throw new ProtocolException("invalid struct field");
            }
            fields.add(new TypeNode.Field(name, built.get((int) idx), false, null));
          }
        }
        yield new TypeNode.Struct(null, null, List.copyOf(fields));
      }
      default -> throw new ProtocolException("unknown node kind");
    };
  }
}
