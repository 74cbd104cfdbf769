package dev.agentcompute.rego.value;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * An arbitrary-precision Rego number. Integers that fit a {@code long} are kept as one (the common
 * case: indexes, counts, ports); everything else is a {@link BigDecimal}. Equality and hashing are
 * numeric, so {@code 1} and {@code 1.0} are the same value. A number remembers the text it was
 * written or computed as (OPA keeps a number's text too), which is what printing and {@code
 * json.marshal} show.
 */
public final class RegoNumber implements RegoValue {
  private static final RegoNumber[] SMALL = new RegoNumber[1024 + 128];
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  static {
    for (int i = 0; i < SMALL.length; i++) {
      SMALL[i] = new RegoNumber(i - 128, null, null);
    }
  }

  public static final RegoNumber ZERO = of(0);
  public static final RegoNumber ONE = of(1);

  private final long small;
  private final BigDecimal big; // null when the value is the long `small`
  private final String text; // null: print canonically
  private int hash;

  private RegoNumber(long small, BigDecimal big, String text) {
    this.small = small;
    this.big = big;
    this.text = text;
  }

  public static RegoNumber of(long v) {
    if (v >= -128 && v < SMALL.length - 128) {
      return SMALL[(int) v + 128];
    }
    return new RegoNumber(v, null, null);
  }

  public static RegoNumber of(BigInteger v) {
    return v.bitLength() < 64 ? of(v.longValue()) : new RegoNumber(0, new BigDecimal(v), null);
  }

  public static RegoNumber of(BigDecimal v) {
    return of(v, null);
  }

  /** A number with the text it should print as (e.g. a literal's source text). */
  public static RegoNumber of(BigDecimal v, String text) {
    if (v.signum() == 0) {
      return text == null ? ZERO : new RegoNumber(0, null, text);
    }
    BigDecimal stripped = v.stripTrailingZeros();
    if (stripped.scale() <= 0
        && stripped.compareTo(LONG_MIN) >= 0
        && stripped.compareTo(LONG_MAX) <= 0) {
      long l = stripped.longValueExact();
      return text == null ? of(l) : new RegoNumber(l, null, text);
    }
    return new RegoNumber(0, stripped, text);
  }

  /**
   * Parses a JSON or Rego number literal, keeping its text.
   *
   * @throws NumberFormatException if {@code s} is not a number
   */
  public static RegoNumber parse(String s) {
    if (s.isEmpty() || s.length() > 4096) {
      throw new NumberFormatException("invalid number");
    }
    boolean plainInt = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-' && s.length() > 1)) {
        plainInt = false;
        break;
      }
    }
    if (plainInt && s.length() <= 18) {
      return of(Long.parseLong(s));
    }
    BigDecimal d = new BigDecimal(s);
    if (Math.abs((long) d.scale()) > 1_000_000) {
      throw new NumberFormatException("number exponent out of range");
    }
    return of(d, plainInt ? null : s);
  }

  /** A Java double as JSON would print it (finite values only). */
  public static RegoNumber of(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("not a finite number: " + d);
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e18) {
      return of((long) d);
    }
    return of(new BigDecimal(Double.toString(d)), GoFloatText.shortest(d));
  }

  public boolean isInteger() {
    return big == null || big.scale() <= 0;
  }

  /** Whether the value is an integer in the {@code long} range. */
  public boolean fitsLong() {
    return big == null;
  }

  /** The value as a long; only meaningful when {@link #fitsLong()}. */
  public long longValue() {
    return big == null ? small : big.longValue();
  }

  public BigDecimal decimal() {
    return big == null ? BigDecimal.valueOf(small) : big;
  }

  /**
   * The integer value.
   *
   * @throws ArithmeticException if the number is not an integer
   */
  public BigInteger bigInteger() {
    return big == null ? BigInteger.valueOf(small) : big.toBigIntegerExact();
  }

  public double doubleValue() {
    return big == null ? (double) small : big.doubleValue();
  }

  public int signum() {
    return big == null ? Long.signum(small) : big.signum();
  }

  /** The text this number prints as. */
  public String text() {
    if (text != null) {
      return text;
    }
    if (big == null) {
      return Long.toString(small);
    }
    if (big.scale() <= 0 && big.precision() - big.scale() <= 400) {
      return big.toBigIntegerExact().toString();
    }
    int exponent = big.precision() - big.scale() - 1;
    if (exponent >= -7 && exponent < 21) {
      return big.toPlainString();
    }
    return GoFloatText.exponent(big);
  }

  int compareNumber(RegoNumber o) {
    if (big == null && o.big == null) {
      return Long.compare(small, o.small);
    }
    return decimal().compareTo(o.decimal());
  }

  @Override
  public String typeName() {
    return "number";
  }

  @Override
  public int typeOrder() {
    return 2;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RegoNumber n)) {
      return false;
    }
    if (big == null && n.big == null) {
      return small == n.small;
    }
    return big != null && n.big != null && big.compareTo(n.big) == 0;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = big == null ? Long.hashCode(small) : big.hashCode();
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return text();
  }
}
