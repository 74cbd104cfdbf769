package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/**
 * json.filter and json.remove: paths are {@code "a/b/0"} strings (JSON-pointer escapes {@code ~0}
 * {@code ~1}) or arrays of segments; array elements are addressed by their index as a string.
 */
final class JsonPaths {
  private JsonPaths() {}

  static void register(Registry r) {
    r.add("json.filter", 2, (c, a) -> filter(Args.object(a, 0), tree(paths(a[1]))));
    r.add("json.remove", 2, JsonPaths::remove);
    r.add("json.patch", 2, JsonPatch::patch);
  }

  /** The paths operand: an array or set of paths. */
  static List<List<RegoValue>> paths(RegoValue operand) throws BuiltinError {
    List<RegoValue> items =
        switch (operand) {
          case RegoArray a -> a.asList();
          case RegoSet s -> s.asList();
          default -> throw Args.typeError(2, operand, "set", "array");
        };
    List<List<RegoValue>> out = new ArrayList<>(items.size());
    for (RegoValue p : items) {
      out.add(path(p));
    }
    return out;
  }

  static List<RegoValue> path(RegoValue p) throws BuiltinError {
    return switch (p) {
      case RegoString s -> {
        List<RegoValue> segs = new ArrayList<>();
        if (s.value().isEmpty()) {
          yield segs;
        }
        String trimmed = s.value().replaceFirst("^/+", "");
        for (String part : trimmed.split("/", -1)) {
          segs.add(RegoString.of(part.replace("~1", "/").replace("~0", "~")));
        }
        yield segs;
      }
      case RegoArray a -> new ArrayList<>(a.asList());
      default ->
          throw BuiltinError.type(
              "operand 2 must be one of {set, array} containing string paths or array of path segments but got "
                  + p.typeName());
    };
  }

  /**
   * The paths as a tree: objects for inner segments, null at a path's end (a shorter path wins).
   */
  static RegoObject tree(List<List<RegoValue>> paths) {
    RegoObject root = RegoObject.EMPTY;
    for (List<RegoValue> p : paths) {
      if (!p.isEmpty()) {
        root = (RegoObject) insert(root, p, 0);
      }
    }
    return root;
  }

  private static RegoValue insert(RegoObject node, List<RegoValue> p, int i) {
    RegoValue k = p.get(i);
    if (i == p.size() - 1) {
      return node.with(k, RegoNull.NULL);
    }
    RegoValue child = node.get(k);
    if (child instanceof RegoNull) {
      return node;
    }
    RegoObject sub = child instanceof RegoObject o ? o : RegoObject.EMPTY;
    return node.with(k, insert(sub, p, i + 1));
  }

  /** OPA's Object.Filter: keep what the filter tree selects. */
  static RegoValue filter(RegoValue v, RegoValue filter) {
    if (filter instanceof RegoNull) {
      return v;
    }
    RegoObject f = (RegoObject) filter;
    switch (v) {
      case RegoArray a -> {
        List<RegoValue> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
          RegoValue sub = f.get(RegoString.of(Integer.toString(i)));
          if (sub != null) {
            out.add(filter(a.get(i), sub));
          }
        }
        return RegoArray.of(out);
      }
      case RegoSet s -> {
        List<RegoValue> out = new ArrayList<>();
        for (RegoValue e : s.asList()) {
          RegoValue sub = f.get(e);
          if (sub != null) {
            out.add(filter(e, sub));
          }
        }
        return RegoSet.of(out);
      }
      case RegoObject o -> {
        RegoObject.Builder b = new RegoObject.Builder();
        for (int i = 0; i < o.size(); i++) {
          RegoValue sub = f.get(o.key(i));
          if (sub != null) {
            b.put(o.key(i), filter(o.value(i), sub));
          }
        }
        return b.build();
      }
      default -> {
        return v;
      }
    }
  }

  private static RegoValue remove(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoObject o = Args.object(a, 0);
    c.charge(o.size());
    return remove(o, tree(paths(a[1])));
  }

  /** {@code v} without the leaves of {@code tree}; null when {@code v} itself is removed. */
  private static RegoValue remove(RegoValue v, RegoValue tree) {
    if (tree == null) {
      return v;
    }
    if (tree instanceof RegoNull) {
      return null;
    }
    if (!(tree instanceof RegoObject t)) {
      return v;
    }
    switch (v) {
      case RegoObject o -> {
        RegoObject.Builder b = new RegoObject.Builder();
        for (int i = 0; i < o.size(); i++) {
          RegoValue kept = remove(o.value(i), t.get(o.key(i)));
          if (kept != null) {
            b.put(o.key(i), kept);
          }
        }
        return b.build();
      }
      case RegoSet s -> {
        List<RegoValue> out = new ArrayList<>();
        for (RegoValue e : s.asList()) {
          RegoValue kept = remove(e, t.get(e));
          if (kept != null) {
            out.add(kept);
          }
        }
        return RegoSet.of(out);
      }
      case RegoArray arr -> {
        List<RegoValue> out = new ArrayList<>();
        for (int i = 0; i < arr.size(); i++) {
          RegoValue kept = remove(arr.get(i), t.get(RegoString.of(Integer.toString(i))));
          if (kept != null) {
            out.add(kept);
          }
        }
        return RegoArray.of(out);
      }
      default -> {
        return v;
      }
    }
  }
}
