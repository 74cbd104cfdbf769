package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Small helpers for value-level tests: building values and calling builtins without the evaluator.
 */
final class Values {
  private Values() {}

  static StarlarkInt i(long v) {
    return StarlarkInt.of(v);
  }

  static StarlarkString s(String v) {
    return StarlarkString.of(v);
  }

  static StarlarkFloat f(double v) {
    return StarlarkFloat.of(v);
  }

  static StarlarkList list(Value... v) {
    return StarlarkList.of(v);
  }

  static Tuple tuple(Value... v) {
    return Tuple.of(v);
  }

  /** Calls the universal builtin {@code name}. */
  static Value call(StarlarkThread t, String name, Value... args) throws EvalException {
    return ((Callable) Universe.get(name)).call(t, args, List.of());
  }

  static Value callKw(StarlarkThread t, String name, Value[] args, Object... kw)
      throws EvalException {
    return ((Callable) Universe.get(name)).call(t, args, kwargs(kw));
  }

  /** Calls method {@code name} of {@code recv}. */
  static Value method(StarlarkThread t, Value recv, String name, Value... args)
      throws EvalException {
    return ((Callable) Operators.getAttr(recv, name)).call(t, args, List.of());
  }

  static Value methodKw(StarlarkThread t, Value recv, String name, Value[] args, Object... kw)
      throws EvalException {
    return ((Callable) Operators.getAttr(recv, name)).call(t, args, kwargs(kw));
  }

  static List<Map.Entry<String, Value>> kwargs(Object... kw) {
    List<Map.Entry<String, Value>> out = new ArrayList<>();
    for (int k = 0; k < kw.length; k += 2) {
      out.add(Map.entry((String) kw[k], (Value) kw[k + 1]));
    }
    return out;
  }

  static String repr(Value v) {
    return Operators.repr(v);
  }
}
