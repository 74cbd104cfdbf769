package dev.agentcompute.rego.value;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ordering of values and conversion between Java objects and Rego values. */
public final class Values {
  /** Deepest Java structure {@link #fromJava} converts; deeper input is rejected, not recursed. */
  public static final int MAX_DEPTH = 1000;

  private Values() {}

  /** OPA's total order over values (see {@link RegoValue}). */
  public static int compare(RegoValue a, RegoValue b) {
    if (a == b) {
      return 0;
    }
    int ta = a.typeOrder();
    int tb = b.typeOrder();
    if (ta != tb) {
      return Integer.compare(ta, tb);
    }
    return switch (a) {
      case RegoNull n -> 0;
      case RegoBoolean x -> Boolean.compare(x.value(), ((RegoBoolean) b).value());
      case RegoNumber x -> x.compareNumber((RegoNumber) b);
      case RegoString x -> compareStrings(x.value(), ((RegoString) b).value());
      case RegoArray x -> compareArrays(x, (RegoArray) b);
      case RegoObject x -> compareObjects(x, (RegoObject) b);
      case RegoSet x -> compareSets(x, (RegoSet) b);
    };
  }

  /** Code point (UTF-8 byte) order, as Go compares strings; Java's compareTo is UTF-16 order. */
  public static int compareStrings(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= 0xD800 && y >= 0xD800) {
          // Surrogates (supplementary code points) sort after U+E000..U+FFFF.
          x = (char) (Character.isSurrogate(x) ? x + 0x2000 : x - 0x800);
          y = (char) (Character.isSurrogate(y) ? y + 0x2000 : y - 0x800);
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  private static int compareArrays(RegoArray a, RegoArray b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareObjects(RegoObject a, RegoObject b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compare(a.key(i), b.key(i));
      if (c != 0) {
        return c;
      }
      c = compare(a.value(i), b.value(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareSets(RegoSet a, RegoSet b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /**
   * Converts a JSON-shaped Java value: null, Boolean, String, Integer/Long/Short/Byte, BigInteger,
   * BigDecimal, finite Double/Float, List or other Collection (array), java.util.Set is also an
   * array (JSON has no sets; use {@link RegoSet} explicitly), Map with any keys (keys converted
   * too), or a {@link RegoValue} (unchanged).
   *
   * @throws IllegalArgumentException for other types, non-finite floats or nesting beyond {@link
   *     #MAX_DEPTH}
   */
  public static RegoValue fromJava(Object o) {
    return fromJava(o, 0);
  }

  private static RegoValue fromJava(Object o, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH + " levels");
    }
    return switch (o) {
      case null -> RegoNull.NULL;
      case RegoValue v -> v;
      case Boolean b -> RegoBoolean.of(b);
      case String s -> RegoString.of(s);
      case Integer i -> RegoNumber.of(i.longValue());
      case Long l -> RegoNumber.of(l);
      case Short s -> RegoNumber.of(s.longValue());
      case Byte b -> RegoNumber.of(b.longValue());
      case BigInteger b -> RegoNumber.of(b);
      case BigDecimal d -> RegoNumber.of(d, null);
      case Double d -> RegoNumber.of(d.doubleValue());
      case Float f -> RegoNumber.of(Double.parseDouble(Float.toString(f)));
      case Map<?, ?> m -> {
        RegoObject.Builder b = new RegoObject.Builder(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
          b.put(fromJava(e.getKey(), depth + 1), fromJava(e.getValue(), depth + 1));
        }
        yield b.build();
      }
      case Collection<?> c -> {
        RegoValue[] items = new RegoValue[c.size()];
        int i = 0;
        for (Object x : c) {
          items[i++] = fromJava(x, depth + 1);
        }
        yield RegoArray.wrap(items);
      }
      default ->
          throw new IllegalArgumentException(
              "cannot convert " + o.getClass().getName() + " to a Rego value");
    };
  }

  /**
   * Converts to JSON-shaped Java: null, Boolean, String, Long (integers in range), BigInteger,
   * BigDecimal, List (arrays, and sets in sorted order) and LinkedHashMap with String keys
   * (non-string keys become their JSON text, as OPA renders them).
   */
  public static Object toJava(RegoValue v) {
    return switch (v) {
      case RegoNull n -> null;
      case RegoBoolean b -> b.value();
      case RegoString s -> s.value();
      case RegoNumber n ->
          n.fitsLong() ? (Object) n.longValue() : n.isInteger() ? n.bigInteger() : n.decimal();
      case RegoArray a -> {
        List<Object> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
          out.add(toJava(a.get(i)));
        }
        yield out;
      }
      case RegoSet s -> {
        List<Object> out = new ArrayList<>(s.size());
        for (int i = 0; i < s.size(); i++) {
          out.add(toJava(s.get(i)));
        }
        yield out;
      }
      case RegoObject o -> {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < o.size(); i++) {
          RegoValue k = o.key(i);
          out.put(k instanceof RegoString s ? s.value() : Json.write(k), toJava(o.value(i)));
        }
        yield out;
      }
    };
  }
}
