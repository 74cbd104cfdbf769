package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/** {@code walk(x)}: a relation yielding {@code [path, value]} for every node of x, root first. */
final class Walk {
  private Walk() {}

  static void register(Registry r) {
    r.relation("walk", 1, Walk::walk);
  }

  private static RegoValue walk(BuiltinContext c, RegoValue[] a) {
    List<RegoValue> out = new ArrayList<>();
    visit(c, new ArrayList<>(), a[0], out, 0);
    return RegoArray.of(out);
  }

  private static void visit(
      BuiltinContext c, List<RegoValue> path, RegoValue v, List<RegoValue> out, int depth) {
    c.charge(1 + path.size() / 8);
    out.add(RegoArray.of(RegoArray.of(path), v));
    switch (v) {
      case RegoArray arr -> {
        for (int i = 0; i < arr.size(); i++) {
          child(c, path, RegoNumber.of(i), arr.get(i), out, depth);
        }
      }
      case RegoObject o -> {
        for (int i = 0; i < o.size(); i++) {
          child(c, path, o.key(i), o.value(i), out, depth);
        }
      }
      case RegoSet s -> {
        for (RegoValue e : s.asList()) {
          child(c, path, e, e, out, depth);
        }
      }
      default -> {}
    }
  }

  private static void child(
      BuiltinContext c,
      List<RegoValue> path,
      RegoValue key,
      RegoValue v,
      List<RegoValue> out,
      int depth) {
    path.add(key);
    visit(c, path, v, out, depth + 1);
    path.remove(path.size() - 1);
  }
}
