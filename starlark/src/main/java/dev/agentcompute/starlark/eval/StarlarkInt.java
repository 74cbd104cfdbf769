package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;

/**
 * An arbitrary-precision integer: a {@code long} fast path with overflow-checked arithmetic that
 * falls back to {@link BigInteger}. {@code big} is non-null only when the value does not fit a
 * long.
 */
public final class StarlarkInt implements Comparable, Immutable {
  /**
   * The largest int a program may build: 64 KiB of magnitude, 524,288 bits (about 157,800 decimal
   * digits; {@code BigInteger.bitLength}, which leaves out the sign). starlark-go has no limit;
   * ours bounds the cost of a single operation. Arithmetic and conversions whose result would be
   * larger fail with {@link SizeLimitException}.
   */
  public static final int MAX_BITS = 64 * 1024 * 8;

  private static final int CACHE_LOW = -128;
  private static final int CACHE_HIGH = 1024;
  private static final StarlarkInt[] CACHE = new StarlarkInt[CACHE_HIGH - CACHE_LOW + 1];

  static {
    for (int i = 0; i < CACHE.length; i++) {
      CACHE[i] = new StarlarkInt(i + CACHE_LOW, null);
    }
  }

  public static final StarlarkInt ZERO = of(0);
  public static final StarlarkInt ONE = of(1);

  /**
   * The value when it fits a long; for a big int, its hash once computed (0 until then: hashing
   * reads every word, so it is done once per value).
   */
  private long small;

  private final BigInteger big;

  private StarlarkInt(long small, BigInteger big) {
    this.small = small;
    this.big = big;
  }

  public static StarlarkInt of(long v) {
    if (v >= CACHE_LOW && v <= CACHE_HIGH) {
      return CACHE[(int) v - CACHE_LOW];
    }
    return new StarlarkInt(v, null);
  }

  public static StarlarkInt of(BigInteger v) {
    if (v.bitLength() < 64) {
      return of(v.longValue());
    }
    return new StarlarkInt(0, v);
  }

  /** True if the value fits a Java long. */
  public boolean isLong() {
    return big == null;
  }

  /** The value as a long; only meaningful when {@link #isLong()}. */
  public long longValue() {
    return big == null ? small : big.longValue();
  }

  public BigInteger toBigInteger() {
    return big == null ? BigInteger.valueOf(small) : big;
  }

  /** The number of bits of the value, leaving out the sign (BigInteger's bitLength). */
  public int bitLength() {
    return big == null
        ? 64 - Long.numberOfLeadingZeros(small < 0 ? ~small : small)
        : big.bitLength();
  }

  /**
   * Parses an optional sign and digits of {@code radix} (2..36), which the caller has checked,
   * charging the conversion to {@code thread} (if given) and refusing an int beyond {@link
   * #MAX_BITS} before converting it.
   */
  public static StarlarkInt parse(StarlarkThread thread, String s, int radix) throws EvalException {
    int first = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
    while (first < s.length() - 1 && s.charAt(first) == '0') {
      first++;
    }
    int digits = s.length() - first;
    if (digits <= 12) {
      return of(Long.parseLong(s, radix));
    }
    IntCost.fromText(thread, digits, radix);
    return IntCost.checked(of(IntParser.parse(s, radix)));
  }

  /** The digits of this int in {@code radix}, charging the conversion to {@code thread}. */
  public String toString(StarlarkThread thread, int radix) throws EvalException {
    if (big == null) {
      return Long.toString(small, radix);
    }
    IntCost.toText(thread, this);
    return big.toString(radix);
  }

  public int signum() {
    return big == null ? Long.signum(small) : big.signum();
  }

  /** The value as an int, or throws with {@code what} when out of int32 range. */
  public int toInt(String what) throws EvalException {
    if (big == null && small >= Integer.MIN_VALUE && small <= Integer.MAX_VALUE) {
      return (int) small;
    }
    throw new EvalException(
        what + ": " + this + " out of range (want value in signed 32-bit range)");
  }

  /** Converts to a double, failing as Go does when the magnitude is too large. */
  public double toDouble() throws EvalException {
    if (big == null) {
      return (double) small;
    }
    double d = big.doubleValue();
    if (Double.isInfinite(d)) {
      throw new EvalException("int too large to convert to float");
    }
    return d;
  }

  /** Go's finiteFloatToInt: truncates a finite double to an int. */
  public static StarlarkInt ofFiniteDouble(double d) {
    if (d >= -9.223372036854775808E18 && d < 9.223372036854775808E18) {
      return of((long) d);
    }
    return of(new java.math.BigDecimal(d).toBigInteger());
  }

  // ---- arithmetic ----

  public StarlarkInt add(StarlarkInt y) {
    if (big == null && y.big == null) {
      long r = small + y.small;
      if (((small ^ r) & (y.small ^ r)) >= 0) {
        return of(r);
      }
    }
    return of(toBigInteger().add(y.toBigInteger()));
  }

  public StarlarkInt sub(StarlarkInt y) {
    if (big == null && y.big == null) {
      long r = small - y.small;
      if (((small ^ y.small) & (small ^ r)) >= 0) {
        return of(r);
      }
    }
    return of(toBigInteger().subtract(y.toBigInteger()));
  }

  public StarlarkInt mul(StarlarkInt y) {
    if (big == null && y.big == null) {
      long hi = Math.multiplyHigh(small, y.small);
      long lo = small * y.small;
      if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
        return of(lo);
      }
    }
    return of(toBigInteger().multiply(y.toBigInteger()));
  }

  public StarlarkInt negate() {
    if (big == null && small != Long.MIN_VALUE) {
      return of(-small);
    }
    return of(toBigInteger().negate());
  }

  /** Floored division; the caller has checked for a zero divisor. */
  public StarlarkInt floorDiv(StarlarkInt y) {
    if (big == null && y.big == null && !(small == Long.MIN_VALUE && y.small == -1)) {
      return of(Math.floorDiv(small, y.small));
    }
    BigInteger[] qr = toBigInteger().divideAndRemainder(y.toBigInteger());
    BigInteger q = qr[0];
    if (qr[1].signum() != 0 && (qr[1].signum() != y.signum())) {
      q = q.subtract(BigInteger.ONE);
    }
    return of(q);
  }

  /** Floored modulo, sign of the divisor; the caller has checked for a zero divisor. */
  public StarlarkInt mod(StarlarkInt y) {
    if (big == null && y.big == null) {
      if (y.small == -1) {
        return ZERO;
      }
      return of(Math.floorMod(small, y.small));
    }
    BigInteger r = toBigInteger().mod(y.toBigInteger().abs());
    if (y.signum() < 0 && r.signum() != 0) {
      r = r.add(y.toBigInteger());
    }
    return of(r);
  }

  public StarlarkInt and(StarlarkInt y) {
    if (big == null && y.big == null) {
      return of(small & y.small);
    }
    return of(toBigInteger().and(y.toBigInteger()));
  }

  public StarlarkInt or(StarlarkInt y) {
    if (big == null && y.big == null) {
      return of(small | y.small);
    }
    return of(toBigInteger().or(y.toBigInteger()));
  }

  public StarlarkInt xor(StarlarkInt y) {
    if (big == null && y.big == null) {
      return of(small ^ y.small);
    }
    return of(toBigInteger().xor(y.toBigInteger()));
  }

  public StarlarkInt not() {
    if (big == null) {
      return of(~small);
    }
    return of(big.not());
  }

  /** Left shift by {@code 0 <= n < 512}. */
  public StarlarkInt shiftLeft(int n) {
    if (big == null && n < 63) {
      long r = small << n;
      if ((r >> n) == small) {
        return of(r);
      }
    }
    return of(toBigInteger().shiftLeft(n));
  }

  /** Arithmetic right shift by {@code n >= 0}. */
  public StarlarkInt shiftRight(int n) {
    if (big == null) {
      return of(n >= 64 ? (small < 0 ? -1 : 0) : small >> n);
    }
    return of(big.shiftRight(n));
  }

  public int compareTo(StarlarkInt y) {
    if (big == null && y.big == null) {
      return Long.compare(small, y.small);
    }
    return toBigInteger().compareTo(y.toBigInteger());
  }

  // ---- Value ----

  @Override
  public String type() {
    return "int";
  }

  @Override
  public boolean truth() {
    return big != null || small != 0;
  }

  @Override
  public int hash() {
    if (big == null) {
      return Hashing.ofLong(small);
    }
    if (small == 0) {
      small = Hashing.ofBytes(big.toByteArray()) | (1L << 32); // never 0 once computed
    }
    return (int) small;
  }

  @Override
  public void repr(StringBuilder sb) {
    if (big == null) {
      sb.append(small);
    } else {
      sb.append(big);
    }
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) {
    return Operators.threeway(op, compareTo((StarlarkInt) y));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StarlarkInt y && compareTo(y) == 0;
  }

  @Override
  public int hashCode() {
    return hash();
  }

  @Override
  public String toString() {
    return big == null ? Long.toString(small) : big.toString();
  }
}
