package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code + - * / %}, abs, round, ceil, floor and numeric ranges. As in OPA, each operation runs in
 * the narrowest exact form: small integers, then big integers, then {@link BigFloat}. {@code -} on
 * two sets is the set difference.
 */
final class Arithmetic {
  private Arithmetic() {}

  private static final long SMALL = 1L << 31;

  /** Range results are built element by element; refuse ranges beyond this many elements. */
  static final long MAX_RANGE = 10_000_000L;

  static void register(Registry r) {
    r.add("plus", 2, (c, a) -> plus(Args.number(a, 0), Args.number(a, 1)));
    r.add("minus", 2, Arithmetic::minus);
    r.add("mul", 2, (c, a) -> mul(Args.number(a, 0), Args.number(a, 1)));
    r.add("div", 2, (c, a) -> div(Args.number(a, 0), Args.number(a, 1)));
    r.add("rem", 2, (c, a) -> rem(Args.number(a, 0), Args.number(a, 1)));
    r.add("abs", 1, (c, a) -> unary(Args.number(a, 0), true, BigFloat::abs));
    r.add("round", 1, (c, a) -> unary(Args.number(a, 0), false, Arithmetic::round));
    r.add("ceil", 1, (c, a) -> unary(Args.number(a, 0), false, Arithmetic::ceil));
    r.add("floor", 1, (c, a) -> unary(Args.number(a, 0), false, Arithmetic::floor));
    r.add("numbers.range", 2, (c, a) -> range(c, bigInt(a, 0), bigInt(a, 1), BigInteger.ONE));
    r.add("numbers.range_step", 3, Arithmetic::rangeStep);
  }

  private static boolean small(RegoNumber n) {
    return n.fitsLong() && n.longValue() >= -SMALL && n.longValue() < SMALL;
  }

  private static RegoNumber plus(RegoNumber x, RegoNumber y) {
    if (small(x) && small(y)) {
      return RegoNumber.of(x.longValue() + y.longValue());
    }
    if (x.isInteger() && y.isInteger()) {
      return RegoNumber.of(x.bigInteger().add(y.bigInteger()));
    }
    return BigFloat.of(x).add(BigFloat.of(y)).toNumber();
  }

  private static RegoValue minus(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    if (a[0] instanceof RegoNumber x && a[1] instanceof RegoNumber y) {
      if (small(x) && small(y)) {
        return RegoNumber.of(x.longValue() - y.longValue());
      }
      if (x.isInteger() && y.isInteger()) {
        return RegoNumber.of(x.bigInteger().subtract(y.bigInteger()));
      }
      return BigFloat.of(x).sub(BigFloat.of(y)).toNumber();
    }
    if (a[0] instanceof RegoSet s && a[1] instanceof RegoSet t) {
      c.charge(s.size() + t.size());
      return s.minus(t);
    }
    if (!(a[0] instanceof RegoNumber) && !(a[0] instanceof RegoSet)) {
      throw Args.typeError(1, a[0], "number", "set");
    }
    throw Args.typeError(2, a[1], a[0] instanceof RegoSet ? "set" : "number");
  }

  private static RegoNumber mul(RegoNumber x, RegoNumber y) {
    if (small(x) && small(y)) {
      return RegoNumber.of(x.longValue() * y.longValue());
    }
    if (x.isInteger() && y.isInteger()) {
      return RegoNumber.of(x.bigInteger().multiply(y.bigInteger()));
    }
    return BigFloat.of(x).mul(BigFloat.of(y)).toNumber();
  }

  private static RegoNumber div(RegoNumber x, RegoNumber y) throws BuiltinError {
    if (y.signum() == 0) {
      throw BuiltinError.of("divide by zero");
    }
    if (small(x) && small(y) && x.longValue() != 0 && x.longValue() % y.longValue() == 0) {
      return RegoNumber.of(x.longValue() / y.longValue());
    }
    return BigFloat.of(x).div(BigFloat.of(y)).toNumber();
  }

  private static RegoNumber rem(RegoNumber x, RegoNumber y) throws BuiltinError {
    if (x.isInteger() && y.isInteger()) {
      if (y.signum() == 0) {
        throw BuiltinError.of("modulo by zero");
      }
      if (small(x) && small(y)) {
        return RegoNumber.of(x.longValue() % y.longValue());
      }
      return RegoNumber.of(x.bigInteger().remainder(y.bigInteger()));
    }
    throw BuiltinError.of("modulo on floating-point number");
  }

  private interface FloatOp {
    BigFloat apply(BigFloat x);
  }

  /** An integer is its own round/ceil/floor, and its abs stays exact. */
  private static RegoNumber unary(RegoNumber n, boolean abs, FloatOp big) {
    if (small(n)) {
      return abs ? RegoNumber.of(Math.abs(n.longValue())) : n;
    }
    if (n.isInteger()) {
      return abs ? RegoNumber.of(n.bigInteger().abs()) : n;
    }
    return big.apply(BigFloat.of(n)).toNumber();
  }

  private static final BigFloat HALF = BigFloat.of(RegoNumber.parse("0.5"));

  private static BigFloat round(BigFloat a) {
    BigFloat shifted = a.signum() < 0 ? a.sub(HALF) : a.add(HALF);
    return BigFloat.of(shifted.truncate());
  }

  private static BigFloat ceil(BigFloat a) {
    BigInteger i = a.truncate();
    BigFloat f = BigFloat.of(i);
    if (a.signum() < 0 || a.exact().compareTo(f.exact()) == 0) {
      return f;
    }
    return BigFloat.of(i.add(BigInteger.ONE));
  }

  private static BigFloat floor(BigFloat a) {
    BigInteger i = a.truncate();
    BigFloat f = BigFloat.of(i);
    if (a.signum() >= 0 || a.exact().compareTo(f.exact()) == 0) {
      return f;
    }
    return BigFloat.of(i.subtract(BigInteger.ONE));
  }

  private static BigInteger bigInt(RegoValue[] a, int i) throws BuiltinError {
    RegoNumber n = Args.number(a, i);
    if (!n.isInteger()) {
      throw BuiltinError.type(
          "operand " + (i + 1) + " must be integer number but got floating-point number");
    }
    return n.bigInteger();
  }

  private static RegoValue rangeStep(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    BigInteger from = bigInt(a, 0);
    BigInteger to = bigInt(a, 1);
    BigInteger step = bigInt(a, 2);
    if (step.signum() <= 0) {
      throw BuiltinError.of("step must be a positive integer");
    }
    return range(c, from, to, step);
  }

  private static RegoArray range(BuiltinContext c, BigInteger from, BigInteger to, BigInteger step)
      throws BuiltinError {
    BigInteger span = to.subtract(from).abs();
    BigInteger count = span.divide(step).add(BigInteger.ONE);
    if (count.compareTo(BigInteger.valueOf(MAX_RANGE)) > 0) {
      // Charge what building it would cost: under a step budget this is a budget failure.
      c.charge(count.min(BigInteger.valueOf(Long.MAX_VALUE / 4)).longValue());
      throw BuiltinError.of("range of " + count + " numbers is too large");
    }
    int n = count.intValueExact();
    c.charge(n);
    List<RegoValue> out = new ArrayList<>(n);
    BigInteger s = from.compareTo(to) <= 0 ? step : step.negate();
    BigInteger x = from;
    for (int i = 0; i < n; i++) {
      out.add(RegoNumber.of(x));
      x = x.add(s);
    }
    return RegoArray.of(out);
  }
}
