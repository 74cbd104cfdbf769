package dev.agentcompute.server.observe;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A small JSON writer for the operational endpoints' own documents (maps, lists, strings, numbers,
 * booleans, instants, null): their shape is ours and does not change with a library's rendering.
 * Strings are escaped as the JSON log lines escape them ({@link LogFormats#jsonString}).
 */
public final class JsonText {
  private JsonText() {}

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  private static void write(StringBuilder out, Object value) {
    switch (value) {
      case null -> out.append("null");
      case String s -> string(out, s);
      case Number n -> out.append(n);
      case Boolean b -> out.append(b);
      case Instant i -> string(out, i.toString());
      case Map<?, ?> m -> {
        out.append('{');
        Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
        while (it.hasNext()) {
          Map.Entry<?, ?> e = it.next();
          string(out, String.valueOf(e.getKey()));
          out.append(':');
          write(out, e.getValue());
          if (it.hasNext()) {
            out.append(',');
          }
        }
        out.append('}');
      }
      case List<?> l -> {
        out.append('[');
        for (int i = 0; i < l.size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          write(out, l.get(i));
        }
        out.append(']');
      }
      default -> string(out, String.valueOf(value));
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append(LogFormats.jsonString(s));
  }
}
