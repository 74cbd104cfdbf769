package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigInteger;

/** bits.or, bits.and, bits.xor, bits.negate, bits.lsh, bits.rsh on arbitrary-size integers. */
final class Bits {
  private Bits() {}

  /** A shift wider than this would build a number of millions of digits. */
  private static final int MAX_SHIFT = 1 << 16;

  static void register(Registry r) {
    r.add("bits.or", 2, (c, a) -> RegoNumber.of(integer(a, 0).or(integer(a, 1))));
    r.add("bits.and", 2, (c, a) -> RegoNumber.of(integer(a, 0).and(integer(a, 1))));
    r.add("bits.xor", 2, (c, a) -> RegoNumber.of(integer(a, 0).xor(integer(a, 1))));
    r.add("bits.negate", 1, (c, a) -> RegoNumber.of(integer(a, 0).not()));
    r.add("bits.lsh", 2, (c, a) -> RegoNumber.of(integer(a, 0).shiftLeft(shift(a))));
    r.add("bits.rsh", 2, (c, a) -> RegoNumber.of(integer(a, 0).shiftRight(shift(a))));
  }

  private static BigInteger integer(RegoValue[] a, int i) throws BuiltinError {
    RegoNumber n = Args.number(a, i);
    if (!n.isInteger()) {
      throw BuiltinError.type(
          "operand " + (i + 1) + " must be integer number but got floating-point number");
    }
    return n.bigInteger();
  }

  private static int shift(RegoValue[] a) throws BuiltinError {
    BigInteger s = integer(a, 1);
    if (s.signum() < 0) {
      throw BuiltinError.type(
          "operand 2 must be an unsigned integer number but got a negative integer");
    }
    if (s.compareTo(BigInteger.valueOf(MAX_SHIFT)) > 0) {
      throw BuiltinError.of("shift of " + s + " bits is too large");
    }
    return s.intValue();
  }
}
