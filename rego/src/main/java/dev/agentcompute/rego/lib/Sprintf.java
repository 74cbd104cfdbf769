package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.GoFloatText;
import dev.agentcompute.rego.value.Json;
import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoText;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code sprintf} with Go's {@code fmt} verbs, as OPA passes its operands: integers as Go ints (or
 * big ints), other numbers as float64, strings as strings, and every other value as its Rego text
 * (so {@code %v} of an array prints {@code [1, "a"]}). Flags {@code + - # 0 space}, width and
 * precision (also {@code *}) are supported; mismatches print Go's {@code %!d(string=x)} forms.
 */
final class Sprintf {
  private Sprintf() {}

  static void register(Registry r) {
    r.add("sprintf", 2, Sprintf::sprintf);
  }

  /** An operand as Go would see it: Long, BigInteger, Double or String. */
  private static Object goValue(RegoValue v) {
    if (v instanceof RegoNumber n) {
      if (n.fitsLong()) {
        return n.longValue();
      }
      // OPA parses the number's text as a big integer, else as a float64 ("1e100" is a float).
      if (n.isInteger() && n.text().matches("-?[0-9]+")) {
        return n.bigInteger();
      }
      return n.doubleValue();
    }
    if (v instanceof RegoString s) {
      return s.value();
    }
    return RegoText.of(v);
  }

  private static String goType(Object o) {
    return switch (o) {
      case Long l -> "int";
      case BigInteger b -> "*big.Int";
      case Double d -> "float64";
      default -> "string";
    };
  }

  private static final class Spec {
    boolean plus;
    boolean minus;
    boolean sharp;
    boolean zero;
    boolean space;
    int width = -1;
    int prec = -1;
  }

  private static RegoValue sprintf(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String format = Args.string(a, 0);
    RegoArray arr = Args.array(a, 1);
    Object[] args = new Object[arr.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = goValue(arr.get(i));
    }
    c.charge(format.length() / 16 + args.length);
    StringBuilder out = new StringBuilder();
    int argi = 0;
    int i = 0;
    int n = format.length();
    while (i < n) {
      char ch = format.charAt(i);
      if (ch != '%') {
        out.append(ch);
        i++;
        continue;
      }
      i++;
      if (i >= n) {
        out.append("%!(NOVERB)");
        break;
      }
      Spec s = new Spec();
      while (i < n) {
        char f = format.charAt(i);
        if (f == '+') {
          s.plus = true;
        } else if (f == '-') {
          s.minus = true;
        } else if (f == '#') {
          s.sharp = true;
        } else if (f == '0') {
          s.zero = true;
        } else if (f == ' ') {
          s.space = true;
        } else {
          break;
        }
        i++;
      }
      if (i < n && format.charAt(i) == '*') {
        i++;
        if (argi < args.length && args[argi] instanceof Long w) {
          s.width = (int) Math.abs(w);
          s.minus |= w < 0;
        } else {
          out.append("%!(BADWIDTH)");
        }
        argi++;
      } else {
        int start = i;
        while (i < n && Character.isDigit(format.charAt(i))) {
          i++;
        }
        if (i > start) {
          s.width = Integer.parseInt(format.substring(start, Math.min(i, start + 6)));
        }
      }
      if (i < n && format.charAt(i) == '.') {
        i++;
        if (i < n && format.charAt(i) == '*') {
          i++;
          if (argi < args.length && args[argi] instanceof Long p && p >= 0) {
            s.prec = (int) Math.min(p, 1000);
          } else {
            out.append("%!(BADPREC)");
          }
          argi++;
        } else {
          int start = i;
          while (i < n && Character.isDigit(format.charAt(i))) {
            i++;
          }
          s.prec =
              i > start ? Integer.parseInt(format.substring(start, Math.min(i, start + 4))) : 0;
        }
      }
      if (i >= n) {
        out.append("%!(NOVERB)");
        break;
      }
      int verb = format.codePointAt(i);
      i += Character.charCount(verb);
      if (verb == '%') {
        out.append('%');
        continue;
      }
      if (argi >= args.length) {
        out.append("%!").appendCodePoint(verb).append("(MISSING)");
        continue;
      }
      Object arg = args[argi++];
      out.append(pad(s, format(s, verb, arg), arg instanceof String));
    }
    if (argi < args.length) {
      out.append("%!(EXTRA ");
      for (int j = argi; j < args.length; j++) {
        if (j > argi) {
          out.append(", ");
        }
        out.append(goType(args[j])).append('=').append(plain(args[j]));
      }
      out.append(')');
    }
    return RegoString.of(out.toString());
  }

  private static String plain(Object o) {
    return o instanceof Double d
        ? GoFloatText.format(new BigDecimal(Double.toString(d)))
        : o.toString();
  }

  private static String bad(int verb, Object arg) {
    return "%!" + new String(Character.toChars(verb)) + "(" + goType(arg) + "=" + plain(arg) + ")";
  }

  private static String pad(Spec s, String body, boolean isString) {
    if (body.startsWith("%!") || s.width < 0 || body.codePointCount(0, body.length()) >= s.width) {
      return body;
    }
    int missing = s.width - body.codePointCount(0, body.length());
    if (s.minus) {
      return body + " ".repeat(missing);
    }
    if (s.zero && !isString) {
      int signLen = body.startsWith("-") || body.startsWith("+") || body.startsWith(" ") ? 1 : 0;
      return body.substring(0, signLen) + "0".repeat(missing) + body.substring(signLen);
    }
    return (s.zero ? "0" : " ").repeat(missing) + body;
  }

  private static String format(Spec s, int verb, Object arg) {
    return switch (arg) {
      case Long l -> integer(s, verb, BigInteger.valueOf(l), arg);
      case BigInteger b -> integer(s, verb, b, arg);
      case Double d -> floating(s, verb, d, arg);
      default -> string(s, verb, (String) arg);
    };
  }

  private static String sign(Spec s, boolean negative) {
    return negative ? "-" : s.plus ? "+" : s.space ? " " : "";
  }

  private static String integer(Spec s, int verb, BigInteger v, Object arg) {
    String digits;
    String prefix = "";
    switch (verb) {
      case 'd', 'v' -> digits = v.abs().toString();
      case 'b' -> {
        digits = v.abs().toString(2);
        prefix = s.sharp ? "0b" : "";
      }
      case 'o' -> {
        digits = v.abs().toString(8);
        prefix = s.sharp ? "0" : "";
      }
      case 'O' -> {
        digits = v.abs().toString(8);
        prefix = "0o";
      }
      case 'x' -> {
        digits = v.abs().toString(16);
        prefix = s.sharp ? "0x" : "";
      }
      case 'X' -> {
        digits = v.abs().toString(16).toUpperCase(java.util.Locale.ROOT);
        prefix = s.sharp ? "0X" : "";
      }
      case 'c' -> {
        return arg instanceof Long l && Character.isValidCodePoint((int) (long) l) && l >= 0
            ? new String(Character.toChars((int) (long) l))
            : "\ufffd";
      }
      case 'q' -> {
        return arg instanceof Long l && Character.isValidCodePoint((int) (long) l) && l >= 0
            ? "'"
                + Json.quote(new String(Character.toChars((int) (long) l)))
                    .replaceAll("^\"|\"$", "")
                + "'"
            : bad(verb, arg);
      }
      case 'U' -> {
        String h = v.toString(16).toUpperCase(java.util.Locale.ROOT);
        return "U+" + "0".repeat(Math.max(0, 4 - h.length())) + h;
      }
      default -> {
        return bad(verb, arg);
      }
    }
    if (s.prec >= 0 && digits.length() < s.prec) {
      digits = "0".repeat(s.prec - digits.length()) + digits;
    }
    if (s.prec == 0 && v.signum() == 0) {
      digits = "";
    }
    return sign(s, v.signum() < 0) + prefix + digits;
  }

  private static String floating(Spec s, int verb, double d, Object arg) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.isNaN(d) ? "NaN" : (d > 0 ? sign(s, false) + "+Inf" : "-Inf");
    }
    boolean neg = d < 0 || (d == 0 && 1 / d < 0);
    BigDecimal exact = new BigDecimal(Math.abs(d));
    String body =
        switch (verb) {
          case 'v' -> gFormat(new BigDecimal(Double.toString(Math.abs(d))), -1, false);
          case 'f', 'F' ->
              exact.setScale(s.prec < 0 ? 6 : s.prec, RoundingMode.HALF_EVEN).toPlainString();
          case 'e', 'E' -> eFormat(exact, s.prec < 0 ? 6 : s.prec, verb == 'E');
          case 'g', 'G' -> {
            String g =
                s.prec < 0
                    ? gFormat(new BigDecimal(Double.toString(Math.abs(d))), -1, false)
                    : gFormat(exact, s.prec == 0 ? 1 : s.prec, false);
            yield verb == 'G' ? g.toUpperCase(java.util.Locale.ROOT) : g;
          }
          default -> null;
        };
    if (body == null) {
      return bad(verb, arg);
    }
    return sign(s, neg) + body;
  }

  /** {@code d.dddde±XX} with {@code prec} fraction digits. */
  private static String eFormat(BigDecimal v, int prec, boolean upper) {
    if (v.signum() == 0) {
      return "0" + (prec > 0 ? "." + "0".repeat(prec) : "") + (upper ? "E+00" : "e+00");
    }
    BigDecimal r = v.round(new MathContext(prec + 1, RoundingMode.HALF_EVEN));
    String digits = r.unscaledValue().toString();
    int exp = r.precision() - r.scale() - 1;
    digits = (digits + "0".repeat(prec + 1)).substring(0, prec + 1);
    StringBuilder b = new StringBuilder().append(digits.charAt(0));
    if (prec > 0) {
      b.append('.').append(digits, 1, prec + 1);
    }
    b.append(upper ? 'E' : 'e').append(exp < 0 ? '-' : '+');
    int ax = Math.abs(exp);
    if (ax < 10) {
      b.append('0');
    }
    return b.append(ax).toString();
  }

  /** Go's %g: {@code prec} significant digits (-1: the digits given), trailing zeros dropped. */
  private static String gFormat(BigDecimal v, int prec, boolean upper) {
    if (v.signum() == 0) {
      return "0";
    }
    BigDecimal r = prec < 0 ? v : v.round(new MathContext(prec, RoundingMode.HALF_EVEN));
    r = r.stripTrailingZeros();
    int nd = r.precision();
    int exp = r.precision() - r.scale() - 1;
    int eprec = prec < 0 ? 6 : prec;
    if (prec >= 0 && eprec > nd && nd >= exp + 1) {
      eprec = nd;
    }
    if (exp < -4 || exp >= eprec) {
      return eFormat(r, nd - 1, upper);
    }
    return r.toPlainString();
  }

  private static String string(Spec s, int verb, String v) {
    switch (verb) {
      case 's', 'v' -> {
        if (s.prec >= 0 && v.codePointCount(0, v.length()) > s.prec) {
          return v.substring(0, v.offsetByCodePoints(0, s.prec));
        }
        return v;
      }
      case 'q' -> {
        return Json.quote(v);
      }
      case 'x', 'X' -> {
        StringBuilder b = new StringBuilder();
        for (byte x : v.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
          if (s.space && !b.isEmpty()) {
            b.append(' ');
          }
          b.append(String.format(verb == 'x' ? "%02x" : "%02X", x & 0xff));
        }
        return b.toString();
      }
      default -> {
        return bad(verb, v);
      }
    }
  }
}
