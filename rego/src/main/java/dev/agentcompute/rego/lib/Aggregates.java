package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import dev.agentcompute.rego.value.Values;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** count, sum, product, max, min, sort. */
final class Aggregates {
  private Aggregates() {}

  static void register(Registry r) {
    r.add("count", 1, (c, a) -> count(a));
    r.add("sum", 1, (c, a) -> fold(c, a, true));
    r.add("product", 1, (c, a) -> fold(c, a, false));
    r.add("max", 1, (c, a) -> extreme(c, a, true));
    r.add("min", 1, (c, a) -> extreme(c, a, false));
    r.add("sort", 1, Aggregates::sort);
  }

  private static RegoValue count(RegoValue[] a) throws BuiltinError {
    return switch (a[0]) {
      case RegoArray x -> RegoNumber.of(x.size());
      case RegoObject x -> RegoNumber.of(x.size());
      case RegoSet x -> RegoNumber.of(x.size());
      case RegoString s -> RegoNumber.of(s.value().codePointCount(0, s.value().length()));
      default -> throw Args.typeError(1, a[0], "array", "object", "set", "string");
    };
  }

  private static List<RegoValue> collection(RegoValue[] a) throws BuiltinError {
    return switch (a[0]) {
      case RegoArray x -> x.asList();
      case RegoSet x -> x.asList();
      default -> throw Args.typeError(1, a[0], "set", "array");
    };
  }

  /** Sum or product: exact over integers, {@link BigFloat} once a non-integer appears. */
  private static RegoValue fold(BuiltinContext c, RegoValue[] a, boolean sum) throws BuiltinError {
    List<RegoValue> xs = collection(a);
    c.charge(xs.size());
    boolean allInts = true;
    for (RegoValue v : xs) {
      if (!(v instanceof RegoNumber n)) {
        throw Args.elementError(1, a[0], v, "number");
      }
      allInts &= n.isInteger();
    }
    if (allInts) {
      BigInteger acc = sum ? BigInteger.ZERO : BigInteger.ONE;
      for (RegoValue v : xs) {
        BigInteger i = ((RegoNumber) v).bigInteger();
        acc = sum ? acc.add(i) : acc.multiply(i);
      }
      return RegoNumber.of(acc);
    }
    BigFloat acc = sum ? BigFloat.ZERO : BigFloat.of(BigInteger.ONE);
    for (RegoValue v : xs) {
      BigFloat x = BigFloat.of((RegoNumber) v);
      acc = sum ? acc.add(x) : acc.mul(x);
    }
    return acc.toNumber();
  }

  private static RegoValue extreme(BuiltinContext c, RegoValue[] a, boolean max)
      throws BuiltinError {
    List<RegoValue> xs = collection(a);
    if (xs.isEmpty()) {
      return null;
    }
    c.charge(xs.size());
    RegoValue best = xs.get(0);
    for (RegoValue v : xs) {
      int cmp = Values.compare(v, best);
      if (max ? cmp > 0 : cmp < 0) {
        best = v;
      }
    }
    return best;
  }

  private static RegoValue sort(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    List<RegoValue> xs = new ArrayList<>(collection(a));
    c.charge(xs.size());
    xs.sort(Values::compare);
    return RegoArray.of(xs);
  }
}
