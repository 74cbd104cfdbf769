package dev.agentcompute.rego.value;

import java.math.BigDecimal;

/**
 * Go's {@code 'g'} formatting with the shortest digits ({@code strconv.FormatFloat(f, 'g', -1, 64)}
 * and {@code big.Float.Text('g', -1)}), which is how OPA prints computed non-integer numbers:
 * {@code %e} style when the decimal exponent is below -4 or at least 6, plain digits otherwise.
 */
public final class GoFloatText {
  private GoFloatText() {}

  /** A double, shortest round-trip digits (Java's {@code Double.toString} digits are shortest). */
  static String shortest(double d) {
    return format(new BigDecimal(Double.toString(d)));
  }

  /**
   * Formats {@code digits} (already the shortest decimal for the value) the way Go's {@code 'g'}
   * verb does with precision -1.
   */
  public static String format(BigDecimal digits) {
    if (digits.signum() == 0) {
      return "0";
    }
    BigDecimal d = digits.stripTrailingZeros();
    int exp = d.precision() - d.scale() - 1;
    if (exp < -4 || exp >= 6) {
      return exponent(d);
    }
    return d.toPlainString();
  }

  /** {@code d.ddde+XX} with at least two exponent digits, as Go writes it. */
  static String exponent(BigDecimal value) {
    BigDecimal d = value.stripTrailingZeros();
    String unscaled = d.unscaledValue().abs().toString();
    int exp = d.precision() - d.scale() - 1;
    StringBuilder b = new StringBuilder();
    if (d.signum() < 0) {
      b.append('-');
    }
    b.append(unscaled.charAt(0));
    if (unscaled.length() > 1) {
      b.append('.').append(unscaled, 1, unscaled.length());
    }
    b.append('e').append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    if (a < 10) {
      b.append('0');
    }
    b.append(a);
    return b.toString();
  }
}
