package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/** Set union {@code |}, intersection {@code &}, and the n-ary union/intersection builtins. */
final class SetFns {
  private SetFns() {}

  static void register(Registry r) {
    r.add("or", 2, (c, a) -> charged(c, Args.set(a, 0), Args.set(a, 1)).union(Args.set(a, 1)));
    r.add("and", 2, (c, a) -> charged(c, Args.set(a, 0), Args.set(a, 1)).intersect(Args.set(a, 1)));
    r.add("union", 1, SetFns::union);
    r.add("intersection", 1, SetFns::intersection);
  }

  private static RegoSet charged(BuiltinContext c, RegoSet x, RegoSet y) {
    c.charge(x.size() + y.size());
    return x;
  }

  private static List<RegoSet> sets(RegoValue[] a) throws BuiltinError {
    RegoSet outer = Args.set(a, 0);
    List<RegoSet> out = new ArrayList<>(outer.size());
    for (RegoValue v : outer.asList()) {
      if (!(v instanceof RegoSet s)) {
        throw Args.elementError(1, outer, v, "set");
      }
      out.add(s);
    }
    return out;
  }

  private static RegoValue union(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    List<RegoValue> all = new ArrayList<>();
    for (RegoSet s : sets(a)) {
      c.charge(s.size());
      all.addAll(s.asList());
    }
    return RegoSet.of(all);
  }

  private static RegoValue intersection(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    List<RegoSet> ss = sets(a);
    if (ss.isEmpty()) {
      return RegoSet.EMPTY;
    }
    RegoSet acc = ss.get(0);
    for (RegoSet s : ss) {
      c.charge(s.size());
      acc = acc.intersect(s);
    }
    return acc;
  }
}
