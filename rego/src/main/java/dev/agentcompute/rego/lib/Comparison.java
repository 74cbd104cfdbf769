package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import dev.agentcompute.rego.value.Values;

/** {@code == != < <= > >=} over any two values (OPA's total order), and {@code in}. */
final class Comparison {
  private Comparison() {}

  static void register(Registry r) {
    r.add("equal", 2, (c, a) -> RegoBoolean.of(a[0].equals(a[1])));
    r.add("neq", 2, (c, a) -> RegoBoolean.of(!a[0].equals(a[1])));
    r.add("lt", 2, (c, a) -> RegoBoolean.of(Values.compare(a[0], a[1]) < 0));
    r.add("lte", 2, (c, a) -> RegoBoolean.of(Values.compare(a[0], a[1]) <= 0));
    r.add("gt", 2, (c, a) -> RegoBoolean.of(Values.compare(a[0], a[1]) > 0));
    r.add("gte", 2, (c, a) -> RegoBoolean.of(Values.compare(a[0], a[1]) >= 0));
    r.add("internal.member_2", 2, (c, a) -> RegoBoolean.of(member(c, a[0], a[1])));
    r.add("internal.member_3", 3, (c, a) -> RegoBoolean.of(memberWithKey(a[0], a[1], a[2])));
  }

  private static boolean member(BuiltinContext ctx, RegoValue x, RegoValue coll) {
    switch (coll) {
      case RegoSet s -> {
        return s.contains(x);
      }
      case RegoArray a -> {
        ctx.charge(a.size() / 16);
        for (int i = 0; i < a.size(); i++) {
          if (a.get(i).equals(x)) {
            return true;
          }
        }
        return false;
      }
      case RegoObject o -> {
        ctx.charge(o.size() / 16);
        for (int i = 0; i < o.size(); i++) {
          if (o.value(i).equals(x)) {
            return true;
          }
        }
        return false;
      }
      default -> {
        return false;
      }
    }
  }

  private static boolean memberWithKey(RegoValue key, RegoValue val, RegoValue coll) {
    switch (coll) {
      case RegoSet s -> {
        return s.contains(key) && key.equals(val);
      }
      case RegoObject o -> {
        return val.equals(o.get(key));
      }
      case RegoArray a -> {
        if (key instanceof RegoNumber n
            && n.fitsLong()
            && n.longValue() >= 0
            && n.longValue() < a.size()) {
          return a.get((int) n.longValue()).equals(val);
        }
        return false;
      }
      default -> {
        return false;
      }
    }
  }
}
