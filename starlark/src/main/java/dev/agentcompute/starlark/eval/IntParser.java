package dev.agentcompute.starlark.eval;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Digits to a BigInteger by halves: {@code new BigInteger(String)} multiplies the whole number by
 * the radix once per group of digits, quadratic in the length (820 ms for 157,000 decimal digits on
 * a C1-only JVM); splitting the digits and joining the halves with BigInteger's sub-quadratic
 * multiplication takes 60 ms.
 */
final class IntParser {
  private IntParser() {}

  /** Digits parsed in one piece by BigInteger (where its quadratic method is still fastest). */
  private static final int CHUNK = 512;

  /** {@code digits} (an optional sign, then digits of {@code radix}, checked by the caller). */
  static BigInteger parse(String digits, int radix) {
    boolean neg = digits.startsWith("-");
    int from = neg || digits.startsWith("+") ? 1 : 0;
    BigInteger r = parse(digits, from, digits.length(), radix, new ArrayList<>());
    return neg ? r.negate() : r;
  }

  private static BigInteger parse(String s, int from, int to, int radix, List<BigInteger> powers) {
    int n = to - from;
    if (n <= CHUNK) {
      return new BigInteger(s.substring(from, to), radix);
    }
    // the low part is CHUNK * 2^k digits, the largest such run shorter than the whole
    int k = 0;
    while ((CHUNK << (k + 1)) < n) {
      k++;
    }
    int low = CHUNK << k;
    BigInteger hi = parse(s, from, to - low, radix, powers);
    BigInteger lo = parse(s, to - low, to, radix, powers);
    return hi.multiply(power(powers, radix, k)).add(lo);
  }

  /** radix^(CHUNK * 2^k), squaring the previous power as needed. */
  private static BigInteger power(List<BigInteger> powers, int radix, int k) {
    if (powers.isEmpty()) {
      powers.add(BigInteger.valueOf(radix).pow(CHUNK));
    }
    while (powers.size() <= k) {
      BigInteger p = powers.getLast();
      powers.add(p.multiply(p));
    }
    return powers.get(k);
  }
}
