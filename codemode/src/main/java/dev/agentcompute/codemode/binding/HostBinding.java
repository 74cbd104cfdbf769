package dev.agentcompute.codemode.binding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Host side of argument binding: re-binds the worker's normalized arguments to the exact input
 * record and builds a fresh canonical map for authorization. The worker already produced
 * exactly-typed values, so any mismatch here is a protocol violation, not a user error.
 */
public final class HostBinding {

  /** The typed input for the handler and the detached canonical arguments for the policy. */
  public record Bound(Record input, Map<String, Object> canonical) {}

  /** The arguments do not match the registered input exactly. */
  public static final class Mismatch extends Exception {
    public Mismatch(String message) {
      super(message);
    }
  }

  private HostBinding() {}

  public static Bound bind(TypeNode.Struct shape, Map<String, Object> arguments) throws Mismatch {
    Object[] out = new Object[1];
    Object canonical = struct(shape, arguments, out);
    @SuppressWarnings("unchecked")
    Map<String, Object> c = (Map<String, Object>) canonical;
    return new Bound((Record) out[0], c);
  }

  private static Object struct(TypeNode.Struct s, Object value, Object[] javaOut) throws Mismatch {
    if (!(value instanceof Map<?, ?> m)) {
      throw new Mismatch("expected an object");
    }
    Map<String, TypeNode.Field> byName = new LinkedHashMap<>();
    for (TypeNode.Field f : s.fields()) {
      byName.put(f.name(), f);
    }
    for (Object k : m.keySet()) {
      if (!(k instanceof String ks) || !byName.containsKey(ks)) {
        throw new Mismatch("unknown argument " + k);
      }
    }
    Object[] ctorArgs = new Object[s.fields().size()];
    Map<String, Object> canonical = new TreeMap<>();
    int i = 0;
    for (TypeNode.Field f : s.fields()) {
      Object v = m.get(f.name());
      boolean present = m.containsKey(f.name()) && v != null;
      if (!present && !(f.type() instanceof TypeNode.Opt)) {
        throw new Mismatch("missing argument " + f.name());
      }
      Object[] j = new Object[1];
      Object c = node(f.type(), present ? v : null, j);
      ctorArgs[i++] = j[0];
      if (present) {
        canonical.put(f.name(), c);
      }
    }
    try {
      javaOut[0] = s.constructor().newInstance(ctorArgs);
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new Mismatch("input record constructor rejected the arguments: " + cause);
    }
    return canonical;
  }

  private static Object node(TypeNode n, Object v, Object[] javaOut) throws Mismatch {
    switch (n) {
      case TypeNode.Opt o -> {
        if (v == null) {
          javaOut[0] =
              switch (o.repr()) {
                case OPTIONAL -> Optional.empty();
                case OPTIONAL_LONG -> OptionalLong.empty();
                case OPTIONAL_INT -> OptionalInt.empty();
                case OPTIONAL_DOUBLE -> OptionalDouble.empty();
                default -> null;
              };
          return null;
        }
        Object[] inner = new Object[1];
        Object c = node(o.elem(), v, inner);
        javaOut[0] =
            switch (o.repr()) {
              case OPTIONAL -> Optional.of(inner[0]);
              case OPTIONAL_LONG -> OptionalLong.of((Long) inner[0]);
              case OPTIONAL_INT -> OptionalInt.of((Integer) inner[0]);
              case OPTIONAL_DOUBLE -> OptionalDouble.of((Double) inner[0]);
              default -> inner[0];
            };
        return c;
      }
      case TypeNode.Str s -> {
        if (!(v instanceof String str)) {
          throw new Mismatch("expected a string");
        }
        javaOut[0] = str;
        return str;
      }
      case TypeNode.Bool b -> {
        if (!(v instanceof Boolean bool)) {
          throw new Mismatch("expected a bool");
        }
        javaOut[0] = bool;
        return bool;
      }
      case TypeNode.Int i -> {
        if (!(v instanceof Long l) || l < i.min() || l > i.max()) {
          throw new Mismatch("expected an integer in range");
        }
        javaOut[0] =
            switch (i.repr()) {
              case INT, UINT -> (int) (long) l;
              case SHORT, USHORT -> (short) (long) l;
              case BYTE, UBYTE -> (byte) (long) l;
              default -> l;
            };
        return l;
      }
      case TypeNode.Flt f -> {
        if (!(v instanceof Double d) || d.isNaN() || d.isInfinite()) {
          throw new Mismatch("expected a finite float");
        }
        if (f.float32() && (double) (float) (double) d != d) {
          throw new Mismatch("float32 value not canonical");
        }
        javaOut[0] = f.float32() ? (Object) (float) (double) d : d;
        return d;
      }
      case TypeNode.ListOf l -> {
        if (!(v instanceof List<?> list)) {
          throw new Mismatch("expected a list");
        }
        List<Object> canonical = new ArrayList<>(list.size());
        if (l.bytes()) {
          byte[] bytes = new byte[list.size()];
          for (int k = 0; k < list.size(); k++) {
            Object[] e = new Object[1];
            canonical.add(node(l.elem(), list.get(k), e));
            bytes[k] = (Byte) e[0];
          }
          javaOut[0] = bytes;
          return canonical;
        }
        List<Object> java = new ArrayList<>(list.size());
        for (Object item : list) {
          if (item == null && !(l.elem() instanceof TypeNode.Opt)) {
            throw new Mismatch("null list element");
          }
          Object[] e = new Object[1];
          canonical.add(node(l.elem(), item, e));
          java.add(e[0]);
        }
        javaOut[0] = Collections.unmodifiableList(java);
        return canonical;
      }
      case TypeNode.DictOf d -> {
        if (!(v instanceof Map<?, ?> map)) {
          throw new Mismatch("expected a dict");
        }
        Map<String, Object> canonical = new TreeMap<>();
        Map<String, Object> java = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          if (!(e.getKey() instanceof String k)) {
            throw new Mismatch("dict key must be a string");
          }
          if (e.getValue() == null && !(d.elem() instanceof TypeNode.Opt)) {
            throw new Mismatch("null dict value");
          }
          Object[] j = new Object[1];
          canonical.put(k, node(d.elem(), e.getValue(), j));
          java.put(k, j[0]);
        }
        javaOut[0] = Collections.unmodifiableMap(java);
        return canonical;
      }
      case TypeNode.Struct s -> {
        return struct(s, v, javaOut);
      }
    }
  }
}
