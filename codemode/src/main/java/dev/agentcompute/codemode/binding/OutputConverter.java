package dev.agentcompute.codemode.binding;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Converts a handler's output record to a process-neutral value under a depth limit and a node
 * budget. Invalid output (NaN, unsigned above 2^63-1, a null where none is allowed) is a capability
 * failure; exhausting depth or nodes is a resource limit.
 */
public final class OutputConverter {

  /** The output cannot be represented. */
  public static final class InvalidOutput extends Exception {
    public InvalidOutput(String message) {
      super(message);
    }
  }

  /** Depth or node budget exhausted. */
  public static final class BudgetExceeded extends Exception {
    public BudgetExceeded() {
      super("output exceeds value limits");
    }
  }

  private final long maxDepth;
  private long nodes;

  private OutputConverter(long maxDepth, long nodeBudget) {
    this.maxDepth = maxDepth;
    this.nodes = nodeBudget;
  }

  public static Object convert(TypeNode.Struct shape, Record output, long maxDepth, long nodeBudget)
      throws InvalidOutput, BudgetExceeded {
    if (output == null) {
      throw new InvalidOutput("handler returned null");
    }
    if (output.getClass() != shape.type()) {
      throw new InvalidOutput("handler returned " + output.getClass().getName());
    }
    return new OutputConverter(maxDepth, nodeBudget).value(shape, output, 1);
  }

  private void charge(long n) throws BudgetExceeded {
    nodes -= n;
    if (nodes < 0) {
      throw new BudgetExceeded();
    }
  }

  private Object value(TypeNode n, Object v, long depth) throws InvalidOutput, BudgetExceeded {
    if (n instanceof TypeNode.Opt o) {
      Object inner = unwrap(v);
      return inner == null ? nullNode() : value(o.elem(), inner, depth);
    }
    if (depth > maxDepth) {
      throw new BudgetExceeded();
    }
    if (v == null) {
      if (n instanceof TypeNode.ListOf || n instanceof TypeNode.DictOf) {
        return nullNode();
      }
      throw new InvalidOutput("null value for a non-nullable field");
    }
    charge(1);
    switch (n) {
      case TypeNode.Str s -> {
        return (String) v;
      }
      case TypeNode.Bool b -> {
        return (Boolean) v;
      }
      case TypeNode.Int i -> {
        long l =
            switch (i.repr()) {
              case UINT -> Integer.toUnsignedLong((Integer) v);
              case USHORT -> Short.toUnsignedLong((Short) v);
              case UBYTE -> Byte.toUnsignedLong((Byte) v);
              default -> ((Number) v).longValue();
            };
        if (i.repr() == TypeNode.IntRepr.ULONG && l < 0) {
          throw new InvalidOutput("unsigned value above 9223372036854775807");
        }
        return l;
      }
      case TypeNode.Flt f -> {
        double d = ((Number) v).doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new InvalidOutput("non-finite float");
        }
        return d;
      }
      case TypeNode.ListOf l -> {
        if (v instanceof byte[] bytes) {
          charge(bytes.length);
          if (depth + 1 > maxDepth && bytes.length > 0) {
            throw new BudgetExceeded();
          }
          List<Object> out = new ArrayList<>(bytes.length);
          for (byte b : bytes) {
            out.add(Byte.toUnsignedLong(b));
          }
          return out;
        }
        List<?> list = (List<?>) v;
        charge(list.size());
        nodes += list.size();
        List<Object> out = new ArrayList<>(list.size());
        for (Object item : list) {
          out.add(value(l.elem(), item, depth + 1));
        }
        return out;
      }
      case TypeNode.DictOf d -> {
        Map<?, ?> map = (Map<?, ?>) v;
        charge(map.size());
        nodes += map.size();
        TreeMap<String, Object> out =
            new TreeMap<>(dev.agentcompute.codemode.protocol.Values::compareUtf8);
        for (Map.Entry<?, ?> e : map.entrySet()) {
          if (!(e.getKey() instanceof String k)) {
            throw new InvalidOutput("map key is not a string");
          }
          out.put(k, value(d.elem(), e.getValue(), depth + 1));
        }
        return out;
      }
      case TypeNode.Struct s -> {
        TreeMap<String, Object> out =
            new TreeMap<>(dev.agentcompute.codemode.protocol.Values::compareUtf8);
        for (TypeNode.Field f : s.fields()) {
          Object fv;
          try {
            fv = f.accessor().invoke(v);
          } catch (IllegalAccessException | InvocationTargetException e) {
            throw new InvalidOutput("cannot read output field " + f.name());
          }
          if (f.omitEmpty() && unwrap(fv) == null) {
            continue;
          }
          out.put(f.name(), value(f.type(), fv, depth + 1));
        }
        return out;
      }
      case TypeNode.Opt o -> throw new IllegalStateException("unreachable");
    }
  }

  private Object nullNode() throws BudgetExceeded {
    charge(1);
    return null;
  }

  private static Object unwrap(Object v) {
    return switch (v) {
      case null -> null;
      case Optional<?> o -> o.orElse(null);
      case OptionalLong o -> o.isPresent() ? o.getAsLong() : null;
      case OptionalInt o -> o.isPresent() ? o.getAsInt() : null;
      case OptionalDouble o -> o.isPresent() ? o.getAsDouble() : null;
      default -> v;
    };
  }
}
