package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/** An IEEE 754 double, printed exactly as starlark-go prints it (see {@link FloatFormat}). */
public final class StarlarkFloat implements Comparable, Immutable {
  private final double value;

  private StarlarkFloat(double value) {
    this.value = value;
  }

  public static StarlarkFloat of(double v) {
    return new StarlarkFloat(v);
  }

  public double value() {
    return value;
  }

  @Override
  public String type() {
    return "float";
  }

  @Override
  public boolean truth() {
    return value != 0.0;
  }

  @Override
  public int hash() {
    // Equal ints and floats must hash alike. Go hashes every float as its truncation
    // (finiteFloatToInt(f).Hash()), so all floats in [1, 2) collide; a float with a fraction
    // equals no int and hashes its bits instead.
    if (value == Math.rint(value) && Double.isFinite(value)) {
      return StarlarkInt.ofFiniteDouble(value).hash();
    }
    return Hashing.ofLong(Double.doubleToLongBits(value));
  }

  @Override
  public void repr(StringBuilder sb) {
    FloatFormat.formatG(sb, value);
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) {
    return Operators.compareDoubles(op, value, ((StarlarkFloat) y).value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StarlarkFloat f
        && (f.value == value || (Double.isNaN(value) && Double.isNaN(f.value)));
  }

  @Override
  public int hashCode() {
    return hash();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
