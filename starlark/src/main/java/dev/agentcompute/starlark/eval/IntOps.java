package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/**
 * The int operators with starlark-go's error texts, charged by {@link IntCost} when an operand is
 * beyond 64 bits and refusing results beyond {@link StarlarkInt#MAX_BITS}. Operations whose result
 * is bound to be too large (a product, a left shift) fail before computing it.
 */
final class IntOps {
  private IntOps() {}

  /** {@code a op b}, or null if {@code op} is not an int operator. */
  static Value binary(StarlarkThread thread, Token op, StarlarkInt a, StarlarkInt b)
      throws EvalException {
    boolean big = IntCost.big(a, b);
    switch (op) {
      case PLUS, MINUS, PIPE, AMP, CIRCUMFLEX -> {
        if (big) {
          IntCost.linear(thread, Math.max(IntCost.words(a), IntCost.words(b)));
        }
        StarlarkInt r =
            switch (op) {
              case PLUS -> a.add(b);
              case MINUS -> a.sub(b);
              case PIPE -> a.or(b);
              case AMP -> a.and(b);
              default -> a.xor(b);
            };
        return IntCost.checked(r);
      }
      case STAR -> {
        if (big) {
          // |a*b| has at least bits(a) + bits(b) - 1 bits: refuse before multiplying.
          IntCost.checkBits((long) a.bitLength() + b.bitLength() - 1);
          IntCost.product(thread, IntCost.words(a), IntCost.words(b));
        }
        return IntCost.checked(a.mul(b));
      }
      case SLASHSLASH, PERCENT -> {
        if (b.signum() == 0) {
          throw new EvalException(
              op == Token.SLASHSLASH ? "floored division by zero" : "integer modulo by zero");
        }
        if (big) {
          long wa = IntCost.words(a);
          long wb = IntCost.words(b);
          // long division: one pass over the divisor per quotient word
          IntCost.product(thread, wb, Math.max(1, wa - wb + 1));
        }
        return op == Token.SLASHSLASH ? a.floorDiv(b) : a.mod(b);
      }
      case LTLT, GTGT -> {
        int n = Operators.asInt32(b, ""); // as Go: "got string, want int", "N out of range"
        if (n < 0) {
          throw new EvalException("negative shift count: " + n);
        }
        if (op == Token.LTLT) {
          if (n >= 512) {
            throw new EvalException("shift count too large: " + n);
          }
          if (!a.isLong()) {
            IntCost.checkBits((long) a.bitLength() + n);
            IntCost.linear(thread, IntCost.words(a) + 1);
          }
          return IntCost.checked(a.shiftLeft(n));
        }
        if (!a.isLong()) {
          IntCost.linear(thread, IntCost.words(a));
        }
        return a.shiftRight(n);
      }
      default -> {
        return null;
      }
    }
  }

  /** {@code -a}, {@code +a} or {@code ~a}, or null if {@code op} is not an int operator. */
  static Value unary(StarlarkThread thread, Token op, StarlarkInt a) throws EvalException {
    if (op == Token.PLUS) {
      return a;
    }
    if (op != Token.MINUS && op != Token.TILDE) {
      return null;
    }
    if (!a.isLong()) {
      IntCost.linear(thread, IntCost.words(a));
    }
    return IntCost.checked(op == Token.MINUS ? a.negate() : a.not());
  }

  /** Charges comparing {@code a} with {@code b} (equal-length magnitudes compare word by word). */
  static void chargeCompare(StarlarkThread thread, StarlarkInt a, StarlarkInt b)
      throws EvalException {
    if (IntCost.big(a, b)) {
      IntCost.linear(thread, Math.min(IntCost.words(a), IntCost.words(b)));
    }
  }
}
