package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.DepthLimitException;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * json.decode, following starlark-go's decoder (messages and offsets), but iterative rather than
 * recursive: nesting is bounded by {@link #MAX_DEPTH} with a budget error ({@link
 * DepthLimitException}) instead of exhausting the Java stack, and work is charged to the thread's
 * budgets.
 */
final class JsonDecoder {
  /** Deepest array/object nesting accepted (values nested deeper cannot be printed safely). */
  static final int MAX_DEPTH = 1000;

  /** An invalid-JSON failure (the only kind that {@code default=} replaces). */
  static final class Failure extends Exception {
    final int offset;

    Failure(int offset, String message) {
      super(message, null, false, false);
      this.offset = offset;
    }
  }

  private static final class Frame {
    final ArrayList<Value> elems; // for arrays
    final Dict dict; // for objects
    Value key; // pending object key, or null when a key is expected

    Frame(boolean array) {
      this.elems = array ? new ArrayList<>() : null;
      this.dict = array ? null : new Dict();
    }
  }

  private final StarlarkThread thread;
  private final byte[] s;
  private int i;
  private long values;

  JsonDecoder(StarlarkThread thread, byte[] s) {
    this.thread = thread;
    this.s = s;
  }

  Value decode() throws Failure, EvalException {
    if (thread != null) {
      thread.addSteps(1 + s.length / 64);
    }
    Value v = parse();
    if (skipSpace()) {
      throw fail("unexpected character " + quoteRune(s[i] & 0xFF) + " after value");
    }
    return v;
  }

  private Failure fail(String msg) {
    return new Failure(i, msg);
  }

  private boolean skipSpace() {
    for (; i < s.length; i++) {
      byte b = s[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return true;
      }
    }
    return false;
  }

  private byte next() throws Failure {
    if (skipSpace()) {
      return s[i];
    }
    throw fail("unexpected end of file");
  }

  private void count() throws EvalException {
    if ((++values & 1023) == 0 && thread != null) {
      thread.addSteps(16);
      thread.allocate(1024L * 48);
    }
  }

  private Value parse() throws Failure, EvalException {
    ArrayDeque<Frame> stack = new ArrayDeque<>();
    outer:
    while (true) {
      byte b = next();
      Value v;
      switch (b) {
        case '[' -> {
          i++;
          if (next() == ']') {
            i++;
            v = new StarlarkList();
          } else {
            push(stack, new Frame(true));
            continue outer;
          }
        }
        case '{' -> {
          i++;
          if (next() == '}') {
            i++;
            v = new Dict();
          } else {
            push(stack, new Frame(false));
            continue outer;
          }
        }
        default -> v = scalar(b);
      }
      count();
      // Attach v to the enclosing containers, closing those that end here.
      while (true) {
        Frame f = stack.peek();
        if (f == null) {
          return v;
        }
        if (f.elems != null) {
          f.elems.add(v);
          b = next();
          if (b == ',') {
            i++;
            continue outer;
          }
          if (b != ']') {
            throw fail("got " + quoteRune(b & 0xFF) + ", want ',' or ']'");
          }
          i++;
          stack.pop();
          v = StarlarkList.wrap(f.elems);
          continue;
        }
        if (f.key == null) {
          if (!(v instanceof StarlarkString)) {
            throw fail("got " + v.type() + " for object key, want string");
          }
          b = next();
          if (b != ':') {
            throw fail("after object key, got " + quoteRune(b & 0xFF) + ", want ':' ");
          }
          i++;
          f.key = v;
          continue outer;
        }
        f.dict.put(f.key, v);
        f.key = null;
        b = next();
        if (b == ',') {
          i++;
          continue outer;
        }
        if (b != '}') {
          throw fail("in object, got " + quoteRune(b & 0xFF) + ", want ',' or '}'");
        }
        i++;
        stack.pop();
        v = f.dict;
      }
    }
  }

  private void push(ArrayDeque<Frame> stack, Frame f) throws DepthLimitException {
    if (stack.size() >= MAX_DEPTH) {
      // A budget, not invalid JSON (starlark-go decodes any depth): default= does not replace it.
      throw new DepthLimitException(
          "json.decode: at offset " + (i - 1) + ", nesting depth exceeds " + MAX_DEPTH);
    }
    stack.push(f);
  }

  private boolean hasPrefix(String lit) {
    if (i + lit.length() > s.length) {
      return false;
    }
    for (int k = 0; k < lit.length(); k++) {
      if (s[i + k] != lit.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private Value scalar(byte b) throws Failure, EvalException {
    switch (b) {
      case '"':
        return string();
      case 'n':
        if (hasPrefix("null")) {
          i += 4;
          return NoneValue.NONE;
        }
        break;
      case 't':
        if (hasPrefix("true")) {
          i += 4;
          return Bool.TRUE;
        }
        break;
      case 'f':
        if (hasPrefix("false")) {
          i += 5;
          return Bool.FALSE;
        }
        break;
      default:
        if (isDigit(b) || b == '-') {
          boolean isFloat = false;
          int j;
          for (j = i + 1; j < s.length; j++) {
            byte c = s[j];
            if (isDigit(c)) {
              continue;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
              isFloat = true;
            } else {
              break;
            }
          }
          int start = i;
          i = j;
          int d0 = s[start] == '-' ? start + 1 : start;
          if (d0 == j || (s[d0] == '0' && j - d0 > 1 && isDigit(s[d0 + 1]))) {
            throw fail("invalid number: " + ascii(start, j));
          }
          if (isFloat) {
            if (!validFloat(d0, j)) {
              throw fail("invalid number: " + ascii(start, j));
            }
            return StarlarkFloat.of(Double.parseDouble(ascii(start, j)));
          }
          if (j - start <= 18) {
            long v = 0;
            for (int k = d0; k < j; k++) {
              v = v * 10 + (s[k] - '0');
            }
            return StarlarkInt.of(d0 > start ? -v : v);
          }
          return StarlarkInt.parse(thread, ascii(start, j), 10);
        }
    }
    throw fail("unexpected character " + quoteRune(b & 0xFF));
  }

  private String ascii(int from, int to) {
    return new String(s, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** JSON's number grammar after the sign: int [. digits] [e|E [+|-] digits]. */
  private boolean validFloat(int k, int end) {
    int n = k;
    while (n < end && isDigit(s[n])) {
      n++;
    }
    if (n == k) {
      return false;
    }
    if (n < end && s[n] == '.') {
      int f = ++n;
      while (n < end && isDigit(s[n])) {
        n++;
      }
      if (n == f) {
        return false;
      }
    }
    if (n < end && (s[n] == 'e' || s[n] == 'E')) {
      n++;
      if (n < end && (s[n] == '+' || s[n] == '-')) {
        n++;
      }
      int e = n;
      while (n < end && isDigit(s[n])) {
        n++;
      }
      if (n == e) {
        return false;
      }
    }
    return n == end;
  }

  private Value string() throws Failure {
    boolean safe = true;
    boolean closed = false;
    int j = i + 1;
    for (; j < s.length; j++) {
      byte b = s[j];
      if (b == '\\') {
        safe = false;
        j++;
      } else if (b == '"') {
        closed = true;
        j++;
        break;
      } else if (b < 0) {
        safe = false;
      }
    }
    if (!closed) {
      throw fail("unclosed string literal");
    }
    int start = i;
    i = j;
    if (safe) {
      byte[] r = new byte[j - start - 2];
      System.arraycopy(s, start + 1, r, 0, r.length);
      return StarlarkString.ofBytes(r);
    }
    return StarlarkString.ofBytes(unquote(start + 1, j - 1));
  }

  /** encoding/json's string unquoting of s[from:to] (between the quotes). */
  private byte[] unquote(int from, int to) throws Failure {
    ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
    int k = from;
    while (k < to) {
      int c = s[k] & 0xFF;
      if (c == '\\') {
        if (k + 1 >= to) {
          throw fail("unexpected end of JSON input");
        }
        int e = s[k + 1] & 0xFF;
        switch (e) {
          case '"', '\\', '/', '\'' -> {
            out.write(e);
            k += 2;
          }
          case 'b' -> {
            out.write('\b');
            k += 2;
          }
          case 'f' -> {
            out.write('\f');
            k += 2;
          }
          case 'n' -> {
            out.write('\n');
            k += 2;
          }
          case 'r' -> {
            out.write('\r');
            k += 2;
          }
          case 't' -> {
            out.write('\t');
            k += 2;
          }
          case 'u' -> {
            int r = hex4(k + 2, to);
            if (r < 0) {
              throw fail("invalid character in \\u hexadecimal character escape");
            }
            k += 6;
            if (r >= 0xD800 && r < 0xDC00) {
              int r2 = (k + 1 < to && s[k] == '\\' && s[k + 1] == 'u') ? hex4(k + 2, to) : -1;
              if (r2 >= 0xDC00 && r2 < 0xE000) {
                r = Character.toCodePoint((char) r, (char) r2);
                k += 6;
              } else {
                r = 0xFFFD;
              }
            } else if (r >= 0xDC00 && r < 0xE000) {
              r = 0xFFFD;
            }
            writeRune(out, r);
          }
          default ->
              throw fail(
                  "invalid escape sequence `\\" + new String(Character.toChars(e)) + "` in string");
        }
      } else if (c < 0x20) {
        throw fail("invalid character " + quoteRune(c) + " in string literal");
      } else if (c < 0x80) {
        out.write(c);
        k++;
      } else {
        String rest =
            new String(s, k, Math.min(4, to - k), java.nio.charset.StandardCharsets.UTF_8);
        int r = rest.codePointAt(0);
        byte[] enc =
            new String(Character.toChars(r)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        boolean valid =
            r != 0xFFFD
                || (to - k >= 3
                    && (s[k] & 0xFF) == 0xEF
                    && (s[k + 1] & 0xFF) == 0xBF
                    && (s[k + 2] & 0xFF) == 0xBD);
        if (valid
            && enc.length <= to - k
            && java.util.Arrays.equals(enc, 0, enc.length, s, k, k + enc.length)) {
          out.write(enc, 0, enc.length);
          k += enc.length;
        } else {
          writeRune(out, 0xFFFD);
          k++;
        }
      }
    }
    return out.toByteArray();
  }

  private int hex4(int at, int to) {
    if (at + 4 > to) {
      return -1;
    }
    int r = 0;
    for (int k = at; k < at + 4; k++) {
      int d = Character.digit(s[k], 16);
      if (d < 0) {
        return -1;
      }
      r = r * 16 + d;
    }
    return r;
  }

  private static void writeRune(ByteArrayOutputStream out, int r) {
    byte[] b = new String(Character.toChars(r)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.write(b, 0, b.length);
  }

  /** Go's %q of a byte/rune: a single-quoted rune literal. */
  static String quoteRune(int r) {
    StringBuilder sb = new StringBuilder("'");
    switch (r) {
      case '\'' -> sb.append("\\'");
      case '\\' -> sb.append("\\\\");
      case 7 -> sb.append("\\a");
      case '\b' -> sb.append("\\b");
      case '\f' -> sb.append("\\f");
      case '\n' -> sb.append("\\n");
      case '\r' -> sb.append("\\r");
      case '\t' -> sb.append("\\t");
      case 11 -> sb.append("\\v");
      default -> {
        if (r < 0x20 || r == 0x7f) {
          sb.append(String.format("\\x%02x", r));
        } else if (r >= 0x80 && r < 0xA0) {
          sb.append(String.format("\\u%04x", r));
        } else {
          sb.appendCodePoint(r);
        }
      }
    }
    return sb.append('\'').toString();
  }
}
