package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.StarlarkThread;
import java.nio.charset.StandardCharsets;

/** Go's {@code encoding/json.Indent}, byte for byte on valid input. */
final class JsonIndent {
  private JsonIndent() {}

  static String indent(
      StarlarkThread thread, String fnName, String src, String prefix, String indent)
      throws EvalException {
    byte[] s = src.getBytes(StandardCharsets.UTF_8);
    if (thread != null) {
      thread.addSteps(1 + s.length / 32);
    }
    try {
      new JsonDecoder(null, s).decode();
    } catch (JsonDecoder.Failure f) {
      String msg;
      int off = f.offset;
      while (off < s.length
          && (s[off] == ' ' || s[off] == '\t' || s[off] == '\n' || s[off] == '\r')) {
        off++;
      }
      if (off >= s.length) {
        msg = "unexpected end of JSON input";
      } else {
        msg =
            "invalid character "
                + JsonDecoder.quoteRune(s[off] & 0xFF)
                + " looking for beginning of value";
      }
      throw new EvalException(fnName + ": " + msg);
    }
    StringBuilder out = new StringBuilder(s.length * 2);
    boolean needIndent = false;
    boolean inString = false;
    int depth = 0;
    int k = 0;
    while (k < src.length()) {
      char c = src.charAt(k++);
      if (inString) {
        out.append(c);
        if (c == '\\' && k < src.length()) {
          out.append(src.charAt(k++));
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        continue;
      }
      if (needIndent && c != '}' && c != ']') {
        needIndent = false;
        depth++;
        newline(out, prefix, indent, depth);
      }
      switch (c) {
        case '{', '[' -> {
          needIndent = true;
          out.append(c);
        }
        case ',' -> {
          out.append(c);
          newline(out, prefix, indent, depth);
        }
        case ':' -> out.append(c).append(' ');
        case '}', ']' -> {
          if (needIndent) {
            needIndent = false;
          } else {
            depth--;
            newline(out, prefix, indent, depth);
          }
          out.append(c);
        }
        case '"' -> {
          inString = true;
          out.append(c);
        }
        default -> out.append(c);
      }
    }
    if (thread != null) {
      thread.allocate(out.length());
    }
    return out.toString();
  }

  private static void newline(StringBuilder out, String prefix, String indent, int depth) {
    out.append('\n').append(prefix);
    for (int i = 0; i < depth; i++) {
      out.append(indent);
    }
  }
}
