package dev.agentcompute.starlark.eval;

import java.util.List;
import java.util.Map;

/** String interpolation: {@code fmt % args} and {@code str.format}, as starlark-go does them. */
final class Formatter {
  private Formatter() {}

  /** Appends str(v) (strings raw, everything else as its repr-like String()). */
  private static void writeStr(StarlarkThread t, ByteBuffer buf, Value v) throws EvalException {
    if (v instanceof StarlarkString s) {
      buf.append(s.bytes());
    } else {
      writeRepr(t, buf, v);
    }
  }

  private static void writeRepr(StarlarkThread t, ByteBuffer buf, Value v) throws EvalException {
    buf.append(Operators.render(t, v, false));
  }

  /** {@code format % x}. */
  static Value percent(StarlarkThread thread, StarlarkString fmt, Value x) throws EvalException {
    byte[] f = fmt.bytes();
    if (thread != null) {
      thread.addByteSteps(f.length);
    }
    ByteBuffer buf = new ByteBuffer(thread);
    int index = 0;
    int nargs = x instanceof Tuple t ? t.len() : 1;
    int p = 0;
    while (true) {
      int i = StringMethods.indexOf(f, new byte[] {'%'}, p, f.length);
      if (i < 0) {
        buf.append(f, p, f.length);
        break;
      }
      buf.append(f, p, i);
      p = i + 1;
      if (p < f.length && f[p] == '%') {
        buf.append('%');
        p++;
        continue;
      }
      Value arg;
      if (p < f.length && f[p] == '(') {
        p++;
        int j = StringMethods.indexOf(f, new byte[] {')'}, p, f.length);
        if (j < 0) {
          throw new EvalException("incomplete format key");
        }
        StarlarkString key = StarlarkString.ofBytes(java.util.Arrays.copyOfRange(f, p, j));
        if (!(x instanceof Mapping m)) {
          throw new EvalException("format requires a mapping");
        }
        Value v;
        try {
          v = m.get(key);
        } catch (EvalException e) {
          v = null;
        }
        if (v == null) {
          throw new EvalException("key not found: " + key.value());
        }
        arg = v;
        p = j + 1;
      } else {
        if (index >= nargs) {
          throw new EvalException("not enough arguments for format string");
        }
        arg = x instanceof Tuple t ? t.get(index) : x;
      }
      if (p >= f.length) {
        throw new EvalException("incomplete format");
      }
      long d = Utf8.decode(f, p, f.length);
      int c = Utf8.rune(d);
      p += Utf8.width(d);
      switch (c) {
        case 's' -> writeStr(thread, buf, arg);
        case 'r' -> writeRepr(thread, buf, arg);
        case 'd', 'i', 'o', 'x', 'X' -> {
          StarlarkInt n;
          try {
            n = Builtins.numberToInt(arg);
          } catch (EvalException e) {
            throw new EvalException("%" + (char) c + " format requires integer: " + e.getMessage());
          }
          String s =
              switch (c) {
                case 'o' -> n.toString(thread, 8);
                case 'x' -> n.toString(thread, 16);
                case 'X' -> n.toString(thread, 16).toUpperCase();
                default -> n.toString(thread, 10);
              };
          buf.append(s);
        }
        case 'e', 'f', 'g', 'E', 'F', 'G' -> {
          double v;
          if (arg instanceof StarlarkFloat fl) {
            v = fl.value();
          } else if (arg instanceof StarlarkInt n) {
            v = n.toBigInteger().doubleValue();
          } else {
            throw new EvalException("%" + (char) c + " format requires float, not " + arg.type());
          }
          StringBuilder sb = new StringBuilder();
          formatFloat(sb, v, (char) c);
          if (thread != null && sb.length() > 64) {
            // %f of a large float prints every integer digit (316 bytes for 1e308), exactly
            thread.addByteSteps(sb.length());
          }
          buf.append(sb.toString());
        }
        case 'c' -> {
          if (arg instanceof StarlarkInt n) {
            if (!n.isLong() || n.longValue() < 0 || n.longValue() > 0x10FFFF) {
              throw new EvalException("%c format requires a valid Unicode code point, got " + n);
            }
            buf.append(Utf8.encode((int) n.longValue()));
          } else if (arg instanceof StarlarkString s) {
            byte[] b = s.bytes();
            if (b.length == 0 || Utf8.width(Utf8.decode(b, 0, b.length)) != b.length) {
              throw new EvalException("%c format requires a single-character string");
            }
            buf.append(Utf8.encode(Utf8.rune(Utf8.decode(b, 0, b.length))));
          } else {
            throw new EvalException(
                "%c format requires int or single-character string, not " + arg.type());
          }
        }
        case '%' -> buf.append('%');
        default ->
            throw new EvalException("unknown conversion %" + new String(Character.toChars(c)));
      }
      index++;
    }
    if (index < nargs && !(x instanceof Mapping)) {
      throw new EvalException("too many arguments for format string");
    }
    return buf.toStarlarkString();
  }

  /** Float.format of starlark-go for %e %f %g (and upper-case forms). */
  static void formatFloat(StringBuilder sb, double v, char conv) {
    switch (conv) {
      case 'e', 'E' -> FloatFormat.formatE(sb, v, 6, conv == 'E');
      case 'f', 'F' -> FloatFormat.formatF(sb, v, 6);
      default -> {
        if (!Double.isFinite(v)) {
          FloatFormat.formatG(sb, v);
        } else {
          FloatFormat.formatG(sb, v);
          if (conv == 'G') {
            String u = sb.toString().toUpperCase();
            sb.setLength(0);
            sb.append(u);
          }
        }
      }
    }
  }

  /** {@code str.format(*args, **kwargs)}, on the format's bytes so that any byte is kept as is. */
  static Value format(
      StarlarkThread thread,
      StarlarkString recv,
      Value[] args,
      List<Map.Entry<String, Value>> kwargs)
      throws EvalException {
    byte[] f = recv.bytes();
    thread.addByteSteps(f.length);
    ByteBuffer buf = new ByteBuffer(thread);
    boolean auto = false;
    boolean manual = false;
    int index = 0;
    int p = 0;
    while (true) {
      int i = indexOf(f, '{', p, f.length);
      int litEnd = i < 0 ? f.length : i;
      // Replace "}}" with "}" in the literal part, rejecting a lone '}'.
      int q = p;
      while (true) {
        int j = indexOf(f, '}', q, litEnd);
        if (j < 0) {
          buf.append(f, q, litEnd);
          break;
        }
        if (j + 1 == litEnd || f[j + 1] != '}') {
          throw new EvalException("format: single '}' in format");
        }
        buf.append(f, q, j + 1);
        q = j + 2;
      }
      if (i < 0) {
        break;
      }
      if (i + 1 < f.length && f[i + 1] == '{') {
        buf.append('{');
        p = i + 2;
        continue;
      }
      int close = indexOf(f, '}', i + 1, f.length);
      if (close < 0) {
        throw new EvalException("format: unmatched '{' in format");
      }
      String field = text(f, i + 1, close);
      p = close + 1;
      String conv = "s";
      String spec = "";
      String name;
      int bang = field.indexOf('!');
      if (bang < 0) {
        int colon = field.indexOf(':');
        if (colon < 0) {
          name = field;
        } else {
          name = field.substring(0, colon);
          spec = field.substring(colon + 1);
        }
      } else {
        name = field.substring(0, bang);
        String rest = field.substring(bang + 1);
        int colon = rest.indexOf(':');
        if (colon < 0) {
          conv = rest;
        } else {
          conv = rest.substring(0, colon);
          spec = rest.substring(colon + 1);
        }
      }
      Value arg = null;
      if (name.isEmpty()) {
        if (manual) {
          throw new EvalException(
              "format: cannot switch from manual field specification to automatic field numbering");
        }
        auto = true;
        if (index >= args.length) {
          throw new EvalException("format: tuple index out of range");
        }
        arg = args[index++];
      } else if (isDecimal(name)) {
        if (auto) {
          throw new EvalException(
              "format: cannot switch from automatic field numbering to manual field specification");
        }
        manual = true;
        int num = decimal(name);
        if (num < 0 || num >= args.length) {
          throw new EvalException("format: tuple index out of range");
        }
        arg = args[num];
      } else {
        for (Map.Entry<String, Value> kv : kwargs) {
          if (kv.getKey().equals(name)) {
            arg = kv.getValue();
            break;
          }
        }
        if (arg == null) {
          if (name.contains(".")) {
            throw new EvalException(
                "format: attribute syntax x.y is not supported in replacement fields: " + name);
          }
          if (name.contains("[")) {
            throw new EvalException(
                "format: element syntax a[i] is not supported in replacement fields: " + name);
          }
          if (name.contains("{")) {
            throw new EvalException("format: nested replacement fields not supported");
          }
          throw new EvalException("format: keyword " + name + " not found");
        }
      }
      if (!spec.isEmpty()) {
        throw new EvalException(
            "format spec features not supported in replacement fields: " + spec);
      }
      switch (conv) {
        case "s" -> writeStr(thread, buf, arg);
        case "r" -> writeRepr(thread, buf, arg);
        default ->
            throw new EvalException(
                "format: unknown conversion " + Operators.repr(StarlarkString.of(conv)));
      }
    }
    return buf.toStarlarkString();
  }

  private static int indexOf(byte[] b, char c, int from, int to) {
    for (int k = from; k < to; k++) {
      if (b[k] == c) {
        return k;
      }
    }
    return -1;
  }

  private static String text(byte[] b, int from, int to) {
    return StarlarkString.ofBytes(java.util.Arrays.copyOfRange(b, from, to)).value();
  }

  private static boolean isDecimal(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return !s.isEmpty();
  }

  private static int decimal(String s) {
    long x = 0;
    for (int i = 0; i < s.length(); i++) {
      x = x * 10 + (s.charAt(i) - '0');
      if (x > Integer.MAX_VALUE) {
        return -1;
      }
    }
    return (int) x;
  }
}
