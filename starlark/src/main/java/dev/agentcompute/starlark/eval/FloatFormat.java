package dev.agentcompute.starlark.eval;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Go's {@code strconv.FormatFloat} for the conversions Starlark uses: {@code 'g'} with shortest
 * round-trip digits (str/repr/%g), and {@code 'e'}/{@code 'f'} with 6 digits (%e, %f), rounding the
 * exact binary value half-to-even as Go does.
 */
final class FloatFormat {
  private FloatFormat() {}

  /** Shortest decimal digits (no leading/trailing zeros) and the decimal point position. */
  record Digits(String digits, int pointPos) {}

  /**
   * str(float): Go 'g', -1 plus ".0" when neither '.' nor 'e' appears; inf/nan as Starlark spells
   * them.
   */
  static void formatG(StringBuilder sb, double v) {
    if (!nonFinite(sb, v)) {
      int start = sb.length();
      goFormatG(sb, v, false);
      boolean hasPoint = false;
      for (int i = start; i < sb.length(); i++) {
        char c = sb.charAt(i);
        if (c == '.' || c == 'e' || c == 'E') {
          hasPoint = true;
          break;
        }
      }
      if (!hasPoint) {
        sb.append(".0");
      }
    }
  }

  /** %g / %G: Go's 'g' with -1 precision, without the ".0" suffix rule. */
  static void formatPercentG(StringBuilder sb, double v, boolean upper) {
    if (!nonFinite(sb, v)) {
      goFormatG(sb, v, upper);
    }
  }

  private static boolean nonFinite(StringBuilder sb, double v) {
    if (Double.isNaN(v)) {
      sb.append("nan");
      return true;
    }
    if (Double.isInfinite(v)) {
      sb.append(v > 0 ? "+inf" : "-inf");
      return true;
    }
    return false;
  }

  private static void goFormatG(StringBuilder sb, double v, boolean upper) {
    if (v == 0) {
      sb.append((1 / v) < 0 ? "-0" : "0");
      return;
    }
    if (v < 0) {
      sb.append('-');
      v = -v;
    }
    Digits d = shortest(v);
    int exp = d.pointPos - 1;
    String digits = d.digits;
    if (exp < -4 || exp >= 6) {
      // %e with shortest digits
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      appendExp(sb, exp, upper);
      return;
    }
    // %f with shortest digits
    if (d.pointPos <= 0) {
      sb.append("0.");
      for (int i = d.pointPos; i < 0; i++) {
        sb.append('0');
      }
      sb.append(digits);
    } else if (d.pointPos >= digits.length()) {
      sb.append(digits);
      for (int i = digits.length(); i < d.pointPos; i++) {
        sb.append('0');
      }
    } else {
      sb.append(digits, 0, d.pointPos).append('.').append(digits, d.pointPos, digits.length());
    }
  }

  private static void appendExp(StringBuilder sb, int exp, boolean upper) {
    sb.append(upper ? 'E' : 'e');
    sb.append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    if (a < 10) {
      sb.append('0');
    }
    sb.append(a);
  }

  /** The shortest digits that round-trip to {@code v > 0}. */
  static Digits shortest(double v) {
    String s = Double.toString(v);
    int e = s.indexOf('E');
    int exp10 = 0;
    String mant = s;
    if (e >= 0) {
      exp10 = Integer.parseInt(s.substring(e + 1));
      mant = s.substring(0, e);
    }
    int dot = mant.indexOf('.');
    String intPart = dot < 0 ? mant : mant.substring(0, dot);
    String frac = dot < 0 ? "" : mant.substring(dot + 1);
    String all = intPart + frac;
    int pointPos = intPart.length() + exp10;
    int lead = 0;
    while (lead < all.length() - 1 && all.charAt(lead) == '0') {
      lead++;
    }
    all = all.substring(lead);
    pointPos -= lead;
    int end = all.length();
    while (end > 1 && all.charAt(end - 1) == '0') {
      end--;
    }
    all = all.substring(0, end);
    if (all.length() == 2) {
      // Java renders at least two digits; Go picks a single digit when one round-trips.
      Digits one = oneDigit(v, all, pointPos);
      if (one != null) {
        return one;
      }
    }
    return new Digits(all, pointPos);
  }

  /** Exact powers of ten as doubles (10^22 is the largest exactly representable). */
  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  /**
   * Whether no one-digit decimal near {@code two} can round-trip to {@code v}: d*10^k is computed
   * with one correctly rounded operation on exact operands when |k| <= 22, so that double is the
   * decimal's nearest double. Saves the BigDecimal work for nearly every two-digit value.
   */
  private static boolean noOneDigitCandidate(double v, int d1, int pointPos) {
    for (int cand = Math.max(d1, 1); cand <= d1 + 1; cand++) {
      int k = cand == 10 ? pointPos : pointPos - 1;
      int d = cand == 10 ? 1 : cand;
      if (k > 22 || k < -22) {
        return false; // not decidable this way
      }
      double dv = k >= 0 ? d * POW10[k] : d / POW10[-k];
      if (dv == v) {
        return false;
      }
    }
    return true;
  }

  private static Digits oneDigit(double v, String two, int pointPos) {
    int d1 = two.charAt(0) - '0';
    if (noOneDigitCandidate(v, d1, pointPos)) {
      return null;
    }
    Digits best = null;
    BigDecimal exact = new BigDecimal(v);
    BigDecimal bestDist = null;
    for (int cand = d1; cand <= d1 + 1; cand++) {
      String digits;
      int pp = pointPos;
      if (cand == 10) {
        digits = "1";
        pp = pointPos + 1;
      } else if (cand == 0) {
        continue;
      } else {
        digits = Integer.toString(cand);
      }
      BigDecimal value = new BigDecimal(new java.math.BigInteger(digits), -(pp - 1));
      if (value.doubleValue() == v) {
        BigDecimal dist = value.subtract(exact).abs();
        if (bestDist == null || dist.compareTo(bestDist) < 0) {
          best = new Digits(digits, pp);
          bestDist = dist;
        }
      }
    }
    return best;
  }

  /** %e with {@code prec} digits after the point, Go style (exponent at least two digits). */
  static void formatE(StringBuilder sb, double v, int prec, boolean upper) {
    if (nonFinite(sb, v)) {
      return;
    }
    if (v < 0 || (v == 0 && 1 / v < 0)) {
      sb.append('-');
      v = -v;
    }
    if (v == 0) {
      sb.append('0');
      if (prec > 0) {
        sb.append('.').append("0".repeat(prec));
      }
      appendExp(sb, 0, upper);
      return;
    }
    BigDecimal r = new BigDecimal(v).round(new MathContext(prec + 1, RoundingMode.HALF_EVEN));
    String unscaled = r.unscaledValue().toString();
    // normalise to exactly prec+1 digits
    int exp = unscaled.length() - 1 - r.scale();
    StringBuilder digits = new StringBuilder(unscaled);
    while (digits.length() < prec + 1) {
      digits.append('0');
    }
    digits.setLength(prec + 1);
    sb.append(digits.charAt(0));
    if (prec > 0) {
      sb.append('.').append(digits, 1, prec + 1);
    }
    appendExp(sb, exp, upper);
  }

  /** %f with {@code prec} digits after the point, exact half-to-even rounding. */
  static void formatF(StringBuilder sb, double v, int prec) {
    if (nonFinite(sb, v)) {
      return;
    }
    if (v < 0 || (v == 0 && 1 / v < 0)) {
      sb.append('-');
      v = -v;
    }
    sb.append(new BigDecimal(v).setScale(prec, RoundingMode.HALF_EVEN).toPlainString());
  }
}
