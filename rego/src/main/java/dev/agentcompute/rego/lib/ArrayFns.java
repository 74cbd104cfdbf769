package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** array.concat, array.slice, array.reverse. */
final class ArrayFns {
  private ArrayFns() {}

  static void register(Registry r) {
    r.add("array.concat", 2, ArrayFns::concat);
    r.add("array.slice", 3, ArrayFns::slice);
    r.add("array.reverse", 1, ArrayFns::reverse);
  }

  private static RegoValue concat(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoArray x = Args.array(a, 0);
    RegoArray y = Args.array(a, 1);
    c.charge(x.size() + y.size());
    List<RegoValue> out = new ArrayList<>(x.size() + y.size());
    out.addAll(x.asList());
    out.addAll(y.asList());
    return RegoArray.of(out);
  }

  /** OPA clamps both indexes into the array; a start after the stop gives []. */
  private static RegoValue slice(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoArray x = Args.array(a, 0);
    int start = Args.intValue(a, 1);
    int stop = Args.intValue(a, 2);
    start = Math.max(0, Math.min(start, x.size()));
    stop = Math.max(0, Math.min(stop, x.size()));
    if (start >= stop) {
      return RegoArray.EMPTY;
    }
    c.charge(stop - start);
    return RegoArray.of(x.asList().subList(start, stop));
  }

  private static RegoValue reverse(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoArray x = Args.array(a, 0);
    c.charge(x.size());
    List<RegoValue> out = new ArrayList<>(x.asList());
    Collections.reverse(out);
    return RegoArray.of(out);
  }
}
