package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;

/** Looking values up by key, and merging documents. */
final class Docs {
  private Docs() {}

  /** {@code v[key]}: object member, array element (integer index) or set member; else null. */
  static RegoValue index(RegoValue v, RegoValue key) {
    switch (v) {
      case RegoObject o -> {
        return o.get(key);
      }
      case RegoArray a -> {
        if (key instanceof RegoNumber n && n.fitsLong()) {
          long i = n.longValue();
          return i >= 0 && i < a.size() ? a.get((int) i) : null;
        }
        return null;
      }
      case RegoSet s -> {
        return s.contains(key) ? key : null;
      }
      default -> {
        return null;
      }
    }
  }

  /** The member of an object, or null when {@code v} is not an object or lacks it. */
  static RegoValue member(RegoValue v, RegoValue key) {
    return v instanceof RegoObject o ? o.get(key) : null;
  }

  /**
   * Deep merge of two documents defined at the same place: objects merge key by key, sets unite,
   * equal values stay; anything else is a conflict (null).
   */
  static RegoValue merge(RegoValue a, RegoValue b) {
    if (a == null) {
      return b;
    }
    if (b == null || a.equals(b)) {
      return a;
    }
    if (a instanceof RegoObject x && b instanceof RegoObject y) {
      RegoObject.Builder out = x.toBuilder();
      for (int i = 0; i < y.size(); i++) {
        RegoValue k = y.key(i);
        RegoValue merged = merge(out.get(k), y.value(i));
        if (merged == null) {
          return null;
        }
        out.put(k, merged);
      }
      return out.build();
    }
    if (a instanceof RegoSet x && b instanceof RegoSet y) {
      return x.union(y);
    }
    return null;
  }

  /** {@code doc} with {@code value} stored at {@code path}, creating objects along the way. */
  static RegoValue upsert(RegoValue doc, RegoValue[] path, int i, RegoValue value) {
    if (i == path.length) {
      return value;
    }
    RegoObject o = doc instanceof RegoObject x ? x : RegoObject.EMPTY;
    RegoValue child = o.get(path[i]);
    return o.with(path[i], upsert(child, path, i + 1, value));
  }
}
