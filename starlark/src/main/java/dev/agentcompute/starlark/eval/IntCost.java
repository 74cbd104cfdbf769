package dev.agentcompute.starlark.eval;

/**
 * What int work beyond 64 bits costs in steps, and the cap on an int's size. Ints that fit a long
 * cost nothing extra, so ordinary arithmetic is charged exactly one step per operation as before; a
 * big operand makes the work grow with its size, and that work is charged before it is done:
 *
 * <ul>
 *   <li>linear work (+, -, unary -, ~, &amp;, |, ^, shifts, comparisons): one step plus one per 8
 *       words (64 bytes) of the larger operand, the rate at which strings are charged;
 *   <li>quadratic work (*, //, %, conversion to and from text): that, plus one step per {@value
 *       #WORD_PRODUCTS_PER_STEP} products of 64-bit words, the schoolbook cost that bounds
 *       BigInteger's (its Karatsuba and Toom-Cook only do better on large operands).
 * </ul>
 *
 * <p>With these rates the slowest big-int step (text conversion of ~4,000-bit ints, measured on a
 * C1-only JVM as CodeMode's workers run) takes under 1 µs, so a 1,000,000-step budget bounds
 * big-int work at about a second of CPU; the cap bounds a single operation (the costliest, text
 * conversion of a 64 KiB int, is about 110 ms and 525,000 steps).
 */
final class IntCost {
  private IntCost() {}

  /**
   * Words of linear work charged as one step (64 bytes, as {@link StarlarkThread#BYTES_PER_STEP}).
   */
  static final int WORDS_PER_STEP = 8;

  /** Products of two 64-bit words charged as one step. */
  static final int WORD_PRODUCTS_PER_STEP = 128;

  /** log2(radix) for radix 0..36, for the size of a number from its digit count. */
  private static final double[] BITS_PER_DIGIT = new double[37];

  static {
    for (int r = 2; r <= 36; r++) {
      BITS_PER_DIGIT[r] = Math.log(r) / Math.log(2);
    }
  }

  /** The size of {@code x} in 64-bit words (at least 1). */
  static long words(StarlarkInt x) {
    return Math.max(1, (x.bitLength() + 63) >>> 6);
  }

  /** True if an operation on {@code a} (and {@code b}) is more than 64-bit arithmetic. */
  static boolean big(StarlarkInt a, StarlarkInt b) {
    return !a.isLong() || !b.isLong();
  }

  /** Charges linear work over {@code words} words. */
  static void linear(StarlarkThread thread, long words) throws EvalException {
    if (thread != null) {
      thread.addSteps(1 + words / WORDS_PER_STEP);
    }
  }

  /** Charges work proportional to the product of the operands' sizes (and their sum). */
  static void product(StarlarkThread thread, long wordsA, long wordsB) throws EvalException {
    if (thread != null) {
      thread.addSteps(
          1 + (wordsA + wordsB) / WORDS_PER_STEP + wordsA * wordsB / WORD_PRODUCTS_PER_STEP);
    }
  }

  /** Charges converting {@code x} to digits (BigInteger's conversion is quadratic in the size). */
  static void toText(StarlarkThread thread, StarlarkInt x) throws EvalException {
    if (!x.isLong()) {
      long w = words(x);
      product(thread, w, w);
    }
  }

  /**
   * Refuses, before parsing, a number of {@code digits} significant digits in {@code radix} that is
   * bound to exceed the cap, and charges the conversion of the rest.
   */
  static void fromText(StarlarkThread thread, int digits, int radix) throws EvalException {
    double bits = digits * BITS_PER_DIGIT[radix];
    if ((digits - 1) * BITS_PER_DIGIT[radix] >= StarlarkInt.MAX_BITS) {
      throw tooLarge();
    }
    if (bits > 63) {
      long w = (long) bits / 64 + 1;
      product(thread, w, w);
    }
  }

  /** Fails if a result of at least {@code bits} bits would exceed the cap. */
  static void checkBits(long bits) throws SizeLimitException {
    if (bits > StarlarkInt.MAX_BITS) {
      throw tooLarge();
    }
  }

  /** {@code r}, or a size-limit failure if it exceeds the cap. */
  static StarlarkInt checked(StarlarkInt r) throws SizeLimitException {
    if (!r.isLong()) {
      checkBits(r.bitLength());
    }
    return r;
  }

  private static SizeLimitException tooLarge() {
    return new SizeLimitException("int too large (more than " + StarlarkInt.MAX_BITS + " bits)");
  }
}
