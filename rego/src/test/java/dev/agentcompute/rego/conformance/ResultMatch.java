package dev.agentcompute.rego.conformance;

import dev.agentcompute.rego.RegoResult;
import dev.agentcompute.rego.value.RegoValue;
import dev.agentcompute.rego.value.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares result rows with a case's {@code want_result}: values as JSON (sets as sorted arrays,
 * non-string object keys as their JSON text), numbers by value, rows in any order. With {@code
 * sort_bindings}, each binding that is an array is compared in any order.
 */
final class ResultMatch {
  private ResultMatch() {}

  /** Null when they match, else a description of the difference. */
  static String compare(RegoResult got, List<Map<String, Object>> want, boolean sortBindings) {
    List<String> gotRows = new ArrayList<>();
    for (int i = 0; i < got.rows().size(); i++) {
      gotRows.add(canonical(rowToJava(got.row(i)), sortBindings, true));
    }
    List<String> wantRows = new ArrayList<>();
    for (Map<String, Object> w : want) {
      wantRows.add(canonical(w, sortBindings, true));
    }
    gotRows.sort(Comparator.naturalOrder());
    wantRows.sort(Comparator.naturalOrder());
    if (gotRows.equals(wantRows)) {
      return null;
    }
    return "want " + wantRows + ", got " + gotRows;
  }

  private static Map<String, Object> rowToJava(Map<String, RegoValue> row) {
    Map<String, Object> out = new java.util.TreeMap<>();
    row.forEach((k, v) -> out.put(k, Values.toJava(v)));
    return out;
  }

  /**
   * A canonical text for a JSON-like value: numbers normalized, object keys sorted, and with {@code
   * unordered} the arrays at the top of each binding sorted.
   */
  @SuppressWarnings("unchecked")
  static String canonical(Object v, boolean sortBindings, boolean row) {
    if (row) {
      Map<String, Object> m = (Map<String, Object>) v;
      StringBuilder b = new StringBuilder("{");
      for (String k : new java.util.TreeSet<>(m.keySet())) {
        Object x = m.get(k);
        String text;
        if (sortBindings && x instanceof List<?> l) {
          List<String> items = new ArrayList<>();
          for (Object e : l) {
            items.add(canonical(e, false, false));
          }
          items.sort(Comparator.naturalOrder());
          text = items.toString();
        } else {
          text = canonical(x, false, false);
        }
        b.append(k).append('=').append(text).append(';');
      }
      return b.append('}').toString();
    }
    return switch (v) {
      case null -> "null";
      case Map<?, ?> m -> {
        StringBuilder b = new StringBuilder("{");
        List<String> keys = new ArrayList<>();
        for (Object k : m.keySet()) {
          keys.add(String.valueOf(k));
        }
        keys.sort(Comparator.naturalOrder());
        for (String k : keys) {
          Object x = m.get(k);
          b.append('"').append(k).append("\":").append(canonical(x, false, false)).append(',');
        }
        yield b.append('}').toString();
      }
      case List<?> l -> {
        StringBuilder b = new StringBuilder("[");
        for (Object e : l) {
          b.append(canonical(e, false, false)).append(',');
        }
        yield b.append(']').toString();
      }
      case Number n -> number(n);
      case String s -> '"' + s + '"';
      default -> Objects.toString(v);
    };
  }

  private static String number(Number n) {
    BigDecimal d =
        switch (n) {
          case BigDecimal b -> b;
          case BigInteger i -> new BigDecimal(i);
          case Double x -> new BigDecimal(Double.toString(x));
          case Float x -> new BigDecimal(Float.toString(x));
          default -> BigDecimal.valueOf(n.longValue());
        };
    d = d.stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }
}
