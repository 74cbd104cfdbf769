package dev.agentcompute.codemode.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The process-neutral value domain: null, Boolean, Long, finite Double, String, List, and
 * String-keyed Map. Encodes type-preservingly (ints as digits, floats always with {@code .}, {@code
 * e} or {@code E}; keys sorted; Go string escaping) and measures depth (scalar = 1).
 */
public final class Values {

  private Values() {}

  /** Thrown when a value is outside the domain. */
  public static class InvalidValue extends Exception {
    public InvalidValue(String message) {
      super(message);
    }
  }

  /** The type-preserving encoding of {@code v} (docs/reference/codemode.md#value-encoding). */
  public static String encode(Object v) throws InvalidValue {
    return JsonWriter.write(v, JsonWriter.Spelling.TYPED);
  }

  public static void write(StringBuilder b, Object v) throws InvalidValue {
    JsonWriter.write(b, v, JsonWriter.Spelling.TYPED);
  }

  /** UTF-8 byte size of an encoding. */
  public static long size(String encoded) {
    long n = 0;
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** Inclusive depth: scalar or null is 1, each list or map adds 1. */
  public static int depth(Object v) {
    if (v instanceof List<?> l) {
      int d = 0;
      for (Object o : l) {
        d = Math.max(d, depth(o));
      }
      return d + 1;
    }
    if (v instanceof Map<?, ?> m) {
      int d = 0;
      for (Object o : m.values()) {
        d = Math.max(d, depth(o));
      }
      return d + 1;
    }
    return 1;
  }

  /** Checks the domain and the depth limit; maps become sorted. */
  public static Object validate(Object v, long maxDepth) throws InvalidValue {
    return validate(v, 1, maxDepth);
  }

  private static Object validate(Object v, long depth, long maxDepth) throws InvalidValue {
    if (depth > maxDepth) {
      throw new DepthExceeded();
    }
    // instanceof, not a pattern switch: the worker path generates no classes at start
    // (WorkerPathTest).
    if (v == null || v instanceof Boolean || v instanceof Long || v instanceof String) {
      return v;
    }
    if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new InvalidValue("non-finite float");
      }
      return d;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object o : l) {
        out.add(validate(o, depth + 1, maxDepth));
      }
      return out;
    }
    if (v instanceof Map<?, ?> m) {
      TreeMap<String, Object> out = new TreeMap<>(Values::compareUtf8);
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!(e.getKey() instanceof String k)) {
          throw new InvalidValue("object key is not a string");
        }
        out.put(k, validate(e.getValue(), depth + 1, maxDepth));
      }
      return out;
    }
    throw new InvalidValue("unsupported value type " + v.getClass().getName());
  }

  /** The depth limit was exceeded (a resource limit, not a type error). */
  public static final class DepthExceeded extends InvalidValue {
    public DepthExceeded() {
      super("value nested too deeply");
    }
  }

  /** Go byte order of strings (UTF-8), which differs from UTF-16 order above the BMP. */
  public static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        boolean sx = Character.isSurrogate(x);
        boolean sy = Character.isSurrogate(y);
        if (sx != sy) {
          return sx ? 1 : -1;
        }
        return Character.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  }
}
