package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code json.patch} (RFC 6902: add, remove, replace, move, copy, test) over objects, arrays and
 * sets. As in OPA, a patch that cannot be applied makes the call undefined rather than an error.
 */
final class JsonPatch {
  private JsonPatch() {}

  /** A patch step that cannot be applied. */
  private static final class Failed extends Exception {
    Failed() {
      super(null, null, false, false);
    }
  }

  static RegoValue patch(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoValue doc = a[0];
    RegoArray ops = Args.array(a, 1);
    c.charge(ops.size());
    try {
      for (RegoValue op : ops.asList()) {
        doc = apply(doc, op);
      }
      return doc;
    } catch (Failed | BuiltinError e) {
      return null;
    }
  }

  private static RegoValue attr(RegoObject o, String name) throws Failed {
    RegoValue v = o.get(name);
    if (v == null) {
      throw new Failed();
    }
    return v;
  }

  private static RegoValue apply(RegoValue doc, RegoValue opValue) throws Failed, BuiltinError {
    if (!(opValue instanceof RegoObject o) || !(attr(o, "op") instanceof RegoString op)) {
      throw new Failed();
    }
    List<RegoValue> path = JsonPaths.path(attr(o, "path"));
    return switch (op.value()) {
      case "add" -> add(doc, path, 0, attr(o, "value"));
      case "remove" -> remove(doc, path, 0);
      case "replace" -> add(remove(doc, path, 0), path, 0, attr(o, "value"));
      case "move" -> {
        List<RegoValue> from = JsonPaths.path(attr(o, "from"));
        RegoValue chunk = get(doc, from);
        yield add(remove(doc, from, 0), path, 0, chunk);
      }
      case "copy" -> add(doc, path, 0, get(doc, JsonPaths.path(attr(o, "from"))));
      case "test" -> {
        if (!get(doc, path).equals(attr(o, "value"))) {
          throw new Failed();
        }
        yield doc;
      }
      default -> throw new Failed();
    };
  }

  private static int index(RegoValue seg, int size, boolean allowEnd) throws Failed {
    if (allowEnd && seg instanceof RegoString s && s.value().equals("-")) {
      return size;
    }
    long i;
    if (seg instanceof RegoNumber n && n.fitsLong()) {
      i = n.longValue();
    } else if (seg instanceof RegoString s && s.value().matches("0|[1-9][0-9]{0,9}")) {
      i = Long.parseLong(s.value());
    } else {
      throw new Failed();
    }
    if (i < 0 || i > (allowEnd ? size : size - 1)) {
      throw new Failed();
    }
    return (int) i;
  }

  private static RegoValue get(RegoValue doc, List<RegoValue> path) throws Failed {
    RegoValue cur = doc;
    for (RegoValue seg : path) {
      cur =
          switch (cur) {
            case RegoObject o -> o.get(seg);
            case RegoArray a -> a.get(index(seg, a.size(), false));
            case RegoSet s -> s.contains(seg) ? seg : null;
            default -> null;
          };
      if (cur == null) {
        throw new Failed();
      }
    }
    return cur;
  }

  private static RegoValue add(RegoValue doc, List<RegoValue> path, int i, RegoValue value)
      throws Failed {
    if (i == path.size()) {
      return value;
    }
    RegoValue seg = path.get(i);
    boolean last = i == path.size() - 1;
    switch (doc) {
      case RegoObject o -> {
        if (last) {
          return o.with(seg, value);
        }
        RegoValue child = o.get(seg);
        if (child == null) {
          throw new Failed();
        }
        return o.with(seg, add(child, path, i + 1, value));
      }
      case RegoArray a -> {
        List<RegoValue> items = new ArrayList<>(a.asList());
        if (last) {
          items.add(index(seg, a.size(), true), value);
        } else {
          int j = index(seg, a.size(), false);
          items.set(j, add(items.get(j), path, i + 1, value));
        }
        return RegoArray.of(items);
      }
      case RegoSet s -> {
        if (!last) {
          throw new Failed();
        }
        List<RegoValue> items = new ArrayList<>(s.asList());
        items.add(value);
        return RegoSet.of(items);
      }
      default -> throw new Failed();
    }
  }

  private static RegoValue remove(RegoValue doc, List<RegoValue> path, int i) throws Failed {
    if (path.isEmpty()) {
      throw new Failed();
    }
    RegoValue seg = path.get(i);
    boolean last = i == path.size() - 1;
    switch (doc) {
      case RegoObject o -> {
        RegoValue child = o.get(seg);
        if (child == null) {
          throw new Failed();
        }
        return last ? o.without(seg) : o.with(seg, remove(child, path, i + 1));
      }
      case RegoArray a -> {
        List<RegoValue> items = new ArrayList<>(a.asList());
        int j = index(seg, a.size(), false);
        if (last) {
          items.remove(j);
        } else {
          items.set(j, remove(items.get(j), path, i + 1));
        }
        return RegoArray.of(items);
      }
      case RegoSet s -> {
        if (!last || !s.contains(seg)) {
          throw new Failed();
        }
        return s.minus(RegoSet.of(seg));
      }
      default -> throw new Failed();
    }
  }
}
