package dev.agentcompute.rego.lib;

/**
 * The text a regular expression (or glob) is matched against, charging the step budget as the
 * matcher reads it. java.util.regex backtracks, so a pathological pattern can read the input
 * exponentially often; charging per read makes such a match end with a budget error (or
 * cancellation, which the charge also polls) instead of running unbounded.
 */
final class ChargedChars implements CharSequence {
  /** Reads per charged step. */
  private static final int READS_PER_STEP = 256;

  private final BuiltinContext ctx;
  private final String s;
  private int reads;

  ChargedChars(BuiltinContext ctx, String s) {
    this.ctx = ctx;
    this.s = s;
  }

  @Override
  public char charAt(int index) {
    if (++reads == READS_PER_STEP) {
      reads = 0;
      ctx.charge(1);
    }
    return s.charAt(index);
  }

  @Override
  public int length() {
    return s.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new ChargedChars(ctx, s.substring(start, end));
  }

  @Override
  public String toString() {
    return s;
  }
}
