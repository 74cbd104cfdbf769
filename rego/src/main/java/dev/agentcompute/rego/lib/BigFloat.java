package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.GoFloatText;
import dev.agentcompute.rego.value.RegoNumber;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Binary floating point with a 64-bit mantissa, rounded to nearest-even: what OPA's arithmetic on
 * non-integers uses (Go's {@code big.Float} at its default precision). Results print the way OPA
 * prints them: the shortest decimal that rounds back to the same value, in Go's {@code 'g'} style
 * (integers in plain digits). Emulating it keeps results such as {@code 1 / 3} textually equal to
 * OPA's, not just close.
 */
final class BigFloat {
  static final int PREC = 64;

  /** value = mant * 2^exp; mant is 0 or has exactly PREC bits (sign separate in mant). */
  private final BigInteger mant;

  private final int exp;

  private BigFloat(BigInteger mant, int exp) {
    this.mant = mant;
    this.exp = exp;
  }

  static final BigFloat ZERO = new BigFloat(BigInteger.ZERO, 0);

  boolean isZero() {
    return mant.signum() == 0;
  }

  int signum() {
    return mant.signum();
  }

  /** Rounds the rational {@code num / den * 2^e2} (den > 0) to PREC bits. */
  private static BigFloat round(BigInteger num, BigInteger den, int e2) {
    if (num.signum() == 0) {
      return ZERO;
    }
    boolean neg = num.signum() < 0;
    BigInteger n = num.abs();
    // Choose shift so that q = n * 2^shift / den has PREC+2 bits (two extra for rounding).
    int shift = (PREC + 2) - (n.bitLength() - den.bitLength());
    BigInteger scaledN = shift >= 0 ? n.shiftLeft(shift) : n;
    BigInteger scaledD = shift >= 0 ? den : den.shiftLeft(-shift);
    BigInteger[] qr = scaledN.divideAndRemainder(scaledD);
    BigInteger q = qr[0];
    boolean inexact = qr[1].signum() != 0;
    int extra = q.bitLength() - PREC;
    BigInteger m = q.shiftRight(extra);
    BigInteger rest = q.subtract(m.shiftLeft(extra));
    BigInteger half = BigInteger.ONE.shiftLeft(extra - 1);
    int cmp = rest.compareTo(half);
    if (cmp > 0 || (cmp == 0 && (inexact || m.testBit(0)))) {
      m = m.add(BigInteger.ONE);
      if (m.bitLength() > PREC) {
        m = m.shiftRight(1);
        extra++;
      }
    }
    int e = e2 - shift + extra;
    return new BigFloat(neg ? m.negate() : m, e);
  }

  static BigFloat of(RegoNumber n) {
    BigDecimal d = n.decimal();
    BigInteger unscaled = d.unscaledValue();
    int scale = d.scale();
    if (scale <= 0) {
      return round(unscaled.multiply(BigInteger.TEN.pow(-scale)), BigInteger.ONE, 0);
    }
    return round(unscaled, BigInteger.TEN.pow(scale), 0);
  }

  static BigFloat of(BigInteger i) {
    return round(i, BigInteger.ONE, 0);
  }

  /** The exact rational value as (numerator, denominator power of two). */
  private BigInteger[] aligned(BigFloat o) {
    int e = Math.min(exp, o.exp);
    return new BigInteger[] {
      mant.shiftLeft(exp - e), o.mant.shiftLeft(o.exp - e), BigInteger.valueOf(e)
    };
  }

  BigFloat add(BigFloat o) {
    if (isZero()) {
      return o;
    }
    if (o.isZero()) {
      return this;
    }
    BigInteger[] a = aligned(o);
    return round(a[0].add(a[1]), BigInteger.ONE, a[2].intValueExact());
  }

  BigFloat negate() {
    return new BigFloat(mant.negate(), exp);
  }

  BigFloat sub(BigFloat o) {
    return add(o.negate());
  }

  BigFloat mul(BigFloat o) {
    return round(mant.multiply(o.mant), BigInteger.ONE, exp + o.exp);
  }

  /** Division; the caller rules out a zero divisor. */
  BigFloat div(BigFloat o) {
    BigInteger num = mant;
    BigInteger den = o.mant;
    if (den.signum() < 0) {
      num = num.negate();
      den = den.negate();
    }
    return round(num, den, exp - o.exp);
  }

  BigFloat abs() {
    return new BigFloat(mant.abs(), exp);
  }

  /** The exact value as a decimal (finite: the value is a dyadic rational). */
  BigDecimal exact() {
    BigDecimal m = new BigDecimal(mant);
    if (exp >= 0) {
      return m.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exp)));
    }
    // m / 2^-exp = m * 5^-exp / 10^-exp
    return new BigDecimal(mant.multiply(BigInteger.valueOf(5).pow(-exp)), -exp);
  }

  boolean isInt() {
    return exp >= 0 || exact().stripTrailingZeros().scale() <= 0;
  }

  /** The integer part, truncated toward zero. */
  BigInteger truncate() {
    return exact().setScale(0, RoundingMode.DOWN).toBigIntegerExact();
  }

  /** The shortest decimal that rounds back to this value (Go's shortest formatting). */
  BigDecimal shortest() {
    if (isZero()) {
      return BigDecimal.ZERO;
    }
    BigDecimal v = exact();
    BigInteger am = mant.abs();
    // Neighbours are half an ulp away; just below a power of two the lower gap is half as wide.
    BigDecimal ulp = pow2(exp);
    BigDecimal halfUp = ulp.divide(BigDecimal.valueOf(2));
    boolean powerOfTwo = am.bitCount() == 1;
    BigDecimal halfDown = powerOfTwo ? ulp.divide(BigDecimal.valueOf(4)) : halfUp;
    BigDecimal lo;
    BigDecimal hi;
    if (mant.signum() > 0) {
      lo = v.subtract(halfDown);
      hi = v.add(halfUp);
    } else {
      lo = v.subtract(halfUp);
      hi = v.add(halfDown);
    }
    boolean inclusive = !am.testBit(0);
    for (int p = 1; p <= 40; p++) {
      BigDecimal best = null;
      for (RoundingMode mode :
          new RoundingMode[] {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING}) {
        BigDecimal c = v.round(new MathContext(p, mode));
        int a = c.compareTo(lo);
        int b = c.compareTo(hi);
        boolean in = inclusive ? a >= 0 && b <= 0 : a > 0 && b < 0;
        if (in) {
          best = c;
          break;
        }
      }
      if (best != null) {
        return best;
      }
    }
    return v;
  }

  private static BigDecimal pow2(int e) {
    if (e >= 0) {
      return new BigDecimal(BigInteger.ONE.shiftLeft(e));
    }
    return new BigDecimal(BigInteger.valueOf(5).pow(-e), -e);
  }

  /** This value as a Rego number with OPA's text ({@code FloatToNumber}). */
  RegoNumber toNumber() {
    BigDecimal d = shortest();
    String text =
        isInt() ? d.setScale(0, RoundingMode.HALF_EVEN).toPlainString() : GoFloatText.format(d);
    if (isInt()) {
      return RegoNumber.of(new BigDecimal(text));
    }
    return RegoNumber.of(new BigDecimal(text), text);
  }
}
