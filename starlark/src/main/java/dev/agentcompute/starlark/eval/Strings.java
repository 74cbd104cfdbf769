package dev.agentcompute.starlark.eval;

import java.io.ByteArrayOutputStream;

/** Conversions between text and numbers with starlark-go's rules. */
final class Strings {
  /** The decimal forms Go's strconv.ParseFloat accepts (Java's parser alone is more lenient). */
  private static final java.util.regex.Pattern DECIMAL_FLOAT =
      java.util.regex.Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  private Strings() {}

  /** Replaces each invalid UTF-8 byte with the encoding of U+FFFD (Go's utf8Transcode). */
  static byte[] utf8Transcode(byte[] b) {
    boolean valid = true;
    for (int i = 0; i < b.length; ) {
      if (b[i] >= 0) {
        i++;
        continue;
      }
      long d = Utf8.decode(b, i, b.length);
      if (Utf8.rune(d) == Utf8.RUNE_ERROR && Utf8.width(d) == 1) {
        valid = false;
        break;
      }
      i += Utf8.width(d);
    }
    if (valid) {
      return b;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 8);
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      int w = Utf8.width(d);
      if (Utf8.rune(d) == Utf8.RUNE_ERROR && w == 1) {
        Utf8.encode(out, Utf8.RUNE_ERROR);
      } else {
        out.write(b, i, w);
      }
      i += w;
    }
    return out.toByteArray();
  }

  /** float(string): Go's ParseFloat plus Starlark's inf/nan spellings. */
  static double parseFloat(String s) throws EvalException {
    if (s.isEmpty()) {
      throw new EvalException("float: empty string");
    }
    String l = s.toLowerCase();
    switch (l) {
      case "inf", "+inf", "infinity", "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Double.NEGATIVE_INFINITY;
      case "nan", "+nan", "-nan":
        return Double.NaN;
      default:
        break;
    }
    if (!DECIMAL_FLOAT.matcher(s).matches()) {
      throw new EvalException("invalid float literal: " + s);
    }
    double d = Double.parseDouble(s);
    if (Double.isInfinite(d)) {
      throw new EvalException("floating-point number too large");
    }
    return d;
  }

  /** Go's parseInt for int(string, base): sign, optional matching prefix; null if invalid. */
  static StarlarkInt parseInt(StarlarkThread thread, String s, int base) throws EvalException {
    boolean neg = false;
    if (!s.isEmpty()) {
      if (s.charAt(0) == '+') {
        s = s.substring(1);
      } else if (s.charAt(0) == '-') {
        neg = true;
        s = s.substring(1);
      }
    }
    int baseprefix = 0;
    if (s.length() > 1 && s.charAt(0) == '0') {
      if (s.length() > 2) {
        switch (s.charAt(1)) {
          case 'o', 'O' -> baseprefix = 8;
          case 'x', 'X' -> baseprefix = 16;
          case 'b', 'B' -> baseprefix = 2;
          default -> {}
        }
      }
      if (baseprefix != 0) {
        if (base == 0 || baseprefix == base) {
          base = baseprefix;
          s = s.substring(2);
        }
      } else if (base == 0) {
        for (int i = 1; i < s.length(); i++) {
          if (s.charAt(i) != '0') {
            return null;
          }
        }
        return StarlarkInt.ZERO;
      }
    }
    if (base == 0) {
      base = 10;
    }
    if (s.isEmpty()) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int dv;
      if (c >= '0' && c <= '9') {
        dv = c - '0';
      } else if (c >= 'a' && c <= 'z') {
        dv = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'Z') {
        dv = c - 'A' + 10;
      } else {
        return null;
      }
      if (dv >= base) {
        return null;
      }
    }
    return StarlarkInt.parse(thread, neg ? "-" + s : s, base);
  }
}
