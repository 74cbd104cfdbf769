package dev.agentcompute.codemode.protocol;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one JSON writer of CodeMode, for the process-neutral value domain (null, Boolean, Long,
 * finite Double, String, List, String-keyed Map). Two spellings share it: the type-preserving
 * worker encoding, whose byte counts are the value budgets, and the MCP-visible Go {@code
 * encoding/json} text.
 */
public final class JsonWriter {

  /** How floats are spelled and object keys ordered. */
  public enum Spelling {
    /**
     * The worker encoding (docs/reference/codemode.md#value-encoding): floats always carry {@code
     * .}, {@code e} or {@code E} ({@code 1.0}); object keys sorted in UTF-8 byte order.
     */
    TYPED,
    /**
     * Go {@code encoding/json} (docs/reference/codemode.md#success-results): integral floats
     * without {@code .0} ({@code 2}); a LinkedHashMap keeps its order (a Go struct's field order),
     * other maps are sorted.
     */
    MCP
  }

  private JsonWriter() {}

  public static String write(Object v, Spelling spelling) throws Values.InvalidValue {
    StringBuilder b = new StringBuilder();
    write(b, v, spelling);
    return b.toString();
  }

  public static void write(StringBuilder b, Object v, Spelling spelling)
      throws Values.InvalidValue {
    // instanceof, not a pattern switch: the worker path generates no classes at start
    // (WorkerPathTest).
    if (v == null) {
      b.append("null");
    } else if (v instanceof Boolean x) {
      b.append(x ? "true" : "false");
    } else if (v instanceof Long x) {
      b.append(x.longValue());
    } else if (v instanceof Double x) {
      if (x.isNaN() || x.isInfinite()) {
        throw new Values.InvalidValue("non-finite float");
      }
      b.append(spelling == Spelling.TYPED ? GoJson.typedFloat(x) : GoJson.plainFloat(x));
    } else if (v instanceof String x) {
      GoJson.writeString(b, x);
    } else if (v instanceof List<?> l) {
      b.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        write(b, l.get(i), spelling);
      }
      b.append(']');
    } else if (v instanceof Map<?, ?> m) {
      writeObject(b, ordered(m, spelling), spelling);
    } else {
      throw new Values.InvalidValue("unsupported value type " + v.getClass().getName());
    }
  }

  private static Map<?, ?> ordered(Map<?, ?> m, Spelling spelling) throws Values.InvalidValue {
    if (spelling == Spelling.MCP && m instanceof java.util.LinkedHashMap) {
      return m;
    }
    TreeMap<String, Object> sorted = new TreeMap<>(Values::compareUtf8);
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getKey() instanceof String k)) {
        throw new Values.InvalidValue("object key is not a string");
      }
      sorted.put(k, e.getValue());
    }
    return sorted;
  }

  private static void writeObject(StringBuilder b, Map<?, ?> m, Spelling spelling)
      throws Values.InvalidValue {
    b.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      GoJson.writeString(b, (String) e.getKey());
      b.append(':');
      write(b, e.getValue(), spelling);
    }
    b.append('}');
  }
}
