package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/**
 * The lazy result of {@code range(start, stop, step)}: indexable, sliceable, compared by content.
 */
public final class RangeValue implements Sequence, Sliceable, Comparable, Immutable {
  private final long start;
  private final long stop;
  private final long step;
  private final long len; // may exceed int: range(1 << 40) is a valid lazy range, as in Go

  RangeValue(long start, long stop, long step, long len) {
    this.start = start;
    this.stop = stop;
    this.step = step;
    this.len = len;
  }

  /** A lazy range (any length; materialising a huge one fails with "too many elements"). */
  public static RangeValue of(long start, long stop, long step) {
    return new RangeValue(start, stop, step, rangeLen(start, stop, step));
  }

  static long rangeLen(long start, long stop, long step) {
    if (step > 0 ? stop <= start : stop >= start) {
      return 0;
    }
    java.math.BigInteger span =
        java.math.BigInteger.valueOf(stop).subtract(java.math.BigInteger.valueOf(start));
    java.math.BigInteger st = java.math.BigInteger.valueOf(step);
    if (step < 0) {
      span = span.negate();
      st = st.negate();
    }
    java.math.BigInteger n = span.add(st).subtract(java.math.BigInteger.ONE).divide(st);
    return n.min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
  }

  public long start() {
    return start;
  }

  public long stop() {
    return stop;
  }

  public long step() {
    return step;
  }

  /** The length, clamped to {@code Integer.MAX_VALUE} (see {@link #longLen()}). */
  @Override
  public int len() {
    return (int) Math.min(len, Integer.MAX_VALUE);
  }

  /** The exact length. */
  public long longLen() {
    return len;
  }

  @Override
  public Value index(int i) {
    return StarlarkInt.of(start + i * step);
  }

  @Override
  public Value slice(int i, int j, int k) {
    long newStart = start + step * i;
    long newStop = start + step * j;
    long newStep = step * k;
    return new RangeValue(newStart, newStop, newStep, Operators.sliceLength(i, j, k));
  }

  /** Whether {@code x} is an element (x given as long). */
  boolean containsLong(long x) {
    if (len == 0) {
      return false;
    }
    if (step > 0 ? (x < start || x >= stop) : (x > start || x <= stop)) {
      return false;
    }
    return Math.floorMod(x - start, step) == 0 || (x - start) % step == 0;
  }

  @Override
  public Iterator iterate() {
    return new Iterator() {
      private long i;

      @Override
      public Value next() {
        return i < len ? StarlarkInt.of(start + (i++) * step) : null;
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String type() {
    return "range";
  }

  @Override
  public boolean truth() {
    return len > 0;
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable: range");
  }

  @Override
  public void repr(StringBuilder sb) {
    if (step != 1) {
      sb.append("range(")
          .append(start)
          .append(", ")
          .append(stop)
          .append(", ")
          .append(step)
          .append(')');
    } else if (start != 0) {
      sb.append("range(").append(start).append(", ").append(stop).append(')');
    } else {
      sb.append("range(").append(stop).append(')');
    }
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    RangeValue ry = (RangeValue) y;
    switch (op) {
      case EQL:
        return rangeEqual(this, ry);
      case NEQ:
        return !rangeEqual(this, ry);
      default:
        throw new EvalException("range " + op + " range not implemented");
    }
  }

  private static boolean rangeEqual(RangeValue x, RangeValue y) {
    if (x.len != y.len) {
      return false;
    }
    if (x.len == 0) {
      return true;
    }
    if (x.start != y.start) {
      return false;
    }
    return x.len == 1 || x.step == y.step;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
