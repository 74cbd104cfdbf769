package dev.agentcompute.codemode.protocol;

import java.math.BigDecimal;

/**
 * Go {@code encoding/json}-compatible spelling of strings and the type-preserving float spelling of
 * the worker encoding, so byte budgets match the original exactly.
 */
public final class GoJson {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoJson() {}

  /** Appends {@code s} as a JSON string with Go's escaping (HTML-safe, U+2028/2029 escaped). */
  public static void writeString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> unicodeEscape(b, c);
        default -> {
          if (c < 0x20) {
            unicodeEscape(b, c);
          } else if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            b.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            b.append("\\ufffd");
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  private static void unicodeEscape(StringBuilder b, char c) {
    b.append("\\u")
        .append(HEX[c >> 12 & 15])
        .append(HEX[c >> 8 & 15])
        .append(HEX[c >> 4 & 15])
        .append(HEX[c & 15]);
  }

  /** UTF-8 size of {@link #writeString}'s output. */
  public static long stringSize(String s) {
    long n = 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t') {
        n += 2;
      } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
        n += 6;
      } else if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        n += 6;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /**
   * Go {@code strconv.FormatFloat(v, 'g', -1, 64)} with {@code .0} appended when the text has no
   * {@code .}, {@code e} or {@code E}: {@code 1.0}, {@code -0.0}, {@code 1e+06}, {@code 1e-05}.
   */
  public static String typedFloat(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("non-finite float");
    }
    if (v == 0) {
      return (1 / v < 0) ? "-0.0" : "0.0";
    }
    BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - 1 - d.scale();
    StringBuilder b = new StringBuilder();
    if (v < 0) {
      b.append('-');
    }
    if (exp < -4 || exp >= 21 || exp >= 6) {
      b.append(digits.charAt(0));
      if (digits.length() > 1) {
        b.append('.').append(digits, 1, digits.length());
      }
      b.append('e').append(exp < 0 ? '-' : '+');
      int a = Math.abs(exp);
      if (a < 10) {
        b.append('0');
      }
      b.append(a);
      return b.toString();
    }
    if (exp < 0) {
      b.append("0.");
      b.append("0".repeat(-exp - 1)).append(digits);
    } else if (digits.length() <= exp + 1) {
      b.append(digits).append("0".repeat(exp + 1 - digits.length()));
    } else {
      b.append(digits, 0, exp + 1).append('.').append(digits, exp + 1, digits.length());
    }
    String s = b.toString();
    return s.indexOf('.') < 0 ? s + ".0" : s;
  }

  /**
   * Go {@code encoding/json} float spelling (the MCP-visible JSON): {@code 2}, {@code -0}, {@code
   * 1e-7}, {@code 1e+21}.
   */
  public static String plainFloat(double v) {
    if (v == 0) {
      return (1 / v < 0) ? "-0" : "0";
    }
    double abs = Math.abs(v);
    BigDecimal d = new BigDecimal(Double.toString(abs)).stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - 1 - d.scale();
    StringBuilder b = new StringBuilder();
    if (v < 0) {
      b.append('-');
    }
    if (abs < 1e-6 || abs >= 1e21) {
      b.append(digits.charAt(0));
      if (digits.length() > 1) {
        b.append('.').append(digits, 1, digits.length());
      }
      b.append('e').append(exp < 0 ? '-' : '+');
      int a = Math.abs(exp);
      if (a < 10 && exp >= 0) {
        b.append('0');
      }
      b.append(a);
      return b.toString();
    }
    if (exp < 0) {
      b.append("0.").append("0".repeat(-exp - 1)).append(digits);
    } else if (digits.length() <= exp + 1) {
      b.append(digits).append("0".repeat(exp + 1 - digits.length()));
    } else {
      b.append(digits, 0, exp + 1).append('.').append(digits, exp + 1, digits.length());
    }
    return b.toString();
  }
}
