package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * StarlarkInt's long fast paths agree with BigInteger arithmetic (Starlark's floored semantics).
 */
class StarlarkIntTest {
  @Provide
  Arbitrary<BigInteger> ints() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(BigInteger::valueOf),
        Arbitraries.longs().between(-3, 3).map(BigInteger::valueOf),
        Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, -1L)
            .map(BigInteger::valueOf),
        Arbitraries.bigIntegers().between(BigInteger.TWO.pow(70).negate(), BigInteger.TWO.pow(70)));
  }

  private static BigInteger floorDiv(BigInteger x, BigInteger y) {
    BigInteger[] qr = x.divideAndRemainder(y);
    return qr[1].signum() != 0 && qr[1].signum() != y.signum()
        ? qr[0].subtract(BigInteger.ONE)
        : qr[0];
  }

  @Property
  void arithmeticMatchesBigInteger(@ForAll("ints") BigInteger x, @ForAll("ints") BigInteger y)
      throws Exception {
    StarlarkInt a = StarlarkInt.of(x);
    StarlarkInt b = StarlarkInt.of(y);
    assertThat(a.add(b).toBigInteger()).isEqualTo(x.add(y));
    assertThat(a.sub(b).toBigInteger()).isEqualTo(x.subtract(y));
    assertThat(a.mul(b).toBigInteger()).isEqualTo(x.multiply(y));
    assertThat(a.and(b).toBigInteger()).isEqualTo(x.and(y));
    assertThat(a.or(b).toBigInteger()).isEqualTo(x.or(y));
    assertThat(a.xor(b).toBigInteger()).isEqualTo(x.xor(y));
    assertThat(a.negate().toBigInteger()).isEqualTo(x.negate());
    assertThat(a.compareTo(b)).isEqualTo(x.compareTo(y));
    if (y.signum() != 0) {
      BigInteger q = floorDiv(x, y);
      assertThat(a.floorDiv(b).toBigInteger()).isEqualTo(q);
      assertThat(a.mod(b).toBigInteger()).isEqualTo(x.subtract(q.multiply(y)));
      assertThat(Operators.binary(Token.PERCENT, a, b))
          .isEqualTo(StarlarkInt.of(x.subtract(q.multiply(y))));
    }
    // a value that fits a long is always stored as one
    assertThat(a.add(b).isLong()).isEqualTo(x.add(y).bitLength() < 64);
    if (Operators.equal(a, b)) {
      assertThat(a.hash()).isEqualTo(b.hash());
    }
  }

  @Property
  void shiftsMatchBigInteger(@ForAll("ints") BigInteger x, @ForAll("shifts") int n)
      throws Exception {
    StarlarkInt a = StarlarkInt.of(x);
    assertThat(a.shiftLeft(n).toBigInteger()).isEqualTo(x.shiftLeft(n));
    assertThat(a.shiftRight(n).toBigInteger()).isEqualTo(x.shiftRight(n));
  }

  @Provide
  Arbitrary<Integer> shifts() {
    return Arbitraries.integers().between(0, 511);
  }

  @Property
  void floatReprRoundTripsAndIsShortest(@ForAll double d) {
    if (!Double.isFinite(d)) {
      return;
    }
    String s = Operators.repr(StarlarkFloat.of(d));
    assertThat(Double.parseDouble(s)).isEqualTo(d);
    FloatFormat.Digits digits = FloatFormat.shortest(Math.abs(d) == 0 ? 1 : Math.abs(d));
    if (digits.digits().length() > 1 && d != 0) {
      // no shorter digit string round-trips (dropping the last digit, rounded either way)
      String shorter = digits.digits().substring(0, digits.digits().length() - 1);
      for (int bump = 0; bump <= 1; bump++) {
        BigInteger m = new BigInteger(shorter).add(BigInteger.valueOf(bump));
        java.math.BigDecimal v =
            new java.math.BigDecimal(m, -(digits.pointPos() - shorter.length()));
        assertThat(v.doubleValue()).isNotEqualTo(Math.abs(d));
      }
    }
  }
}
