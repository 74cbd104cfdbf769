package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.util.List;

/** object.get, object.keys, object.remove, object.filter, object.union(_n), object.subset. */
final class ObjectFns {
  private ObjectFns() {}

  static void register(Registry r) {
    r.add("object.get", 3, (c, a) -> get(a));
    r.add("object.keys", 1, (c, a) -> RegoSet.of(Args.object(a, 0).keys()));
    r.add("object.remove", 2, (c, a) -> remove(c, a));
    r.add("object.filter", 2, (c, a) -> filter(c, a));
    r.add("object.union", 2, (c, a) -> union(c, Args.object(a, 0), Args.object(a, 1)));
    r.add("object.union_n", 1, ObjectFns::unionN);
    r.add("object.subset", 2, (c, a) -> RegoBoolean.of(subset(a)));
  }

  private static RegoValue get(RegoValue[] a) throws BuiltinError {
    RegoObject o = Args.object(a, 0);
    if (!(a[1] instanceof RegoArray path)) {
      RegoValue v = o.get(a[1]);
      return v == null ? a[2] : v;
    }
    RegoValue cur = o;
    for (RegoValue step : path.asList()) {
      cur = step(cur, step);
      if (cur == null) {
        return a[2];
      }
    }
    return cur;
  }

  private static RegoValue step(RegoValue cur, RegoValue key) {
    return switch (cur) {
      case RegoObject o -> o.get(key);
      case RegoArray arr -> {
        if (key instanceof RegoNumber n
            && n.fitsLong()
            && n.longValue() >= 0
            && n.longValue() < arr.size()) {
          yield arr.get((int) n.longValue());
        }
        yield null;
      }
      case RegoSet s -> s.contains(key) ? key : null;
      default -> null;
    };
  }

  /** The keys operand of remove and filter: an array, set or object (its keys). */
  private static RegoSet keys(RegoValue v) throws BuiltinError {
    return switch (v) {
      case RegoArray a -> RegoSet.of(a.asList());
      case RegoSet s -> s;
      case RegoObject o -> RegoSet.of(o.keys());
      default -> throw Args.typeError(2, v, "object", "set", "array");
    };
  }

  private static RegoValue remove(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoObject o = Args.object(a, 0);
    RegoSet ks = keys(a[1]);
    c.charge(o.size());
    RegoObject.Builder b = new RegoObject.Builder(o.size());
    for (int i = 0; i < o.size(); i++) {
      if (!ks.contains(o.key(i))) {
        b.put(o.key(i), o.value(i));
      }
    }
    return b.build();
  }

  private static RegoValue filter(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoObject o = Args.object(a, 0);
    RegoSet ks = keys(a[1]);
    c.charge(ks.size());
    RegoObject.Builder b = new RegoObject.Builder(ks.size());
    for (RegoValue k : ks.asList()) {
      RegoValue v = o.get(k);
      if (v != null) {
        b.put(k, v);
      }
    }
    return b.build();
  }

  /** Merges {@code b} over {@code a}: nested objects merge recursively, otherwise b wins. */
  static RegoObject union(BuiltinContext c, RegoObject a, RegoObject b) {
    c.charge(a.size() + b.size());
    RegoObject.Builder out = a.toBuilder();
    for (int i = 0; i < b.size(); i++) {
      RegoValue k = b.key(i);
      RegoValue v = b.value(i);
      RegoValue old = out.get(k);
      if (old instanceof RegoObject x && v instanceof RegoObject y) {
        out.put(k, union(c, x, y));
      } else {
        out.put(k, v);
      }
    }
    return out.build();
  }

  private static RegoValue unionN(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoArray arr = Args.array(a, 0);
    RegoObject acc = RegoObject.EMPTY;
    for (RegoValue v : arr.asList()) {
      if (!(v instanceof RegoObject o)) {
        throw Args.elementError(1, arr, v, "object");
      }
      acc = union(c, acc, o);
    }
    return acc;
  }

  private static boolean subset(RegoValue[] a) throws BuiltinError {
    RegoValue sup = a[0];
    RegoValue sub = a[1];
    if (sup instanceof RegoObject x && sub instanceof RegoObject y) {
      return objectSubset(x, y);
    }
    if (sup instanceof RegoSet x && sub instanceof RegoSet y) {
      return setSubset(x, y);
    }
    if (sup instanceof RegoArray x && sub instanceof RegoArray y) {
      return arraySubset(x, y);
    }
    if (sup instanceof RegoArray x && sub instanceof RegoSet y) {
      return arraySetSubset(x, y);
    }
    throw BuiltinError.type(
        "both arguments object.subset must be of the same type or array and set");
  }

  private static boolean objectSubset(RegoObject sup, RegoObject sub) {
    for (int i = 0; i < sub.size(); i++) {
      RegoValue s = sub.value(i);
      RegoValue p = sup.get(sub.key(i));
      if (p == null) {
        return false;
      }
      if (s.equals(p)) {
        continue;
      }
      boolean ok =
          (p instanceof RegoObject po && s instanceof RegoObject so && objectSubset(po, so))
              || (p instanceof RegoSet ps && s instanceof RegoSet ss && setSubset(ps, ss))
              || (p instanceof RegoArray pa && s instanceof RegoArray sa && arraySubset(pa, sa));
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean setSubset(RegoSet sup, RegoSet sub) {
    for (RegoValue e : sub.asList()) {
      if (!sup.contains(e)) {
        return false;
      }
    }
    return true;
  }

  /** The whole {@code sub} array must appear, contiguously, in {@code sup}. */
  private static boolean arraySubset(RegoArray sup, RegoArray sub) {
    if (sub.size() > sup.size()) {
      return false;
    }
    List<RegoValue> s = sub.asList();
    List<RegoValue> p = sup.asList();
    outer:
    for (int start = 0; start + s.size() <= p.size(); start++) {
      for (int j = 0; j < s.size(); j++) {
        if (!p.get(start + j).equals(s.get(j))) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** Every element of {@code sub} appears in {@code sup}, in any order (OPA: false for []). */
  private static boolean arraySetSubset(RegoArray sup, RegoSet sub) {
    int unmatched = sub.size();
    for (RegoValue v : sup.asList()) {
      if (sub.contains(v)) {
        unmatched--;
      }
      if (unmatched <= 0) {
        return true;
      }
    }
    return false;
  }
}
