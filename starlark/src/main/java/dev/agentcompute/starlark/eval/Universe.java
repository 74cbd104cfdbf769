package dev.agentcompute.starlark.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The predeclared names of every Starlark program (docs/reference/starlark.md#predeclared-names):
 * {@code None True False} and the builtin functions. {@code set} is included only when the dialect
 * enables sets.
 */
public final class Universe {
  private static final Map<String, Value> ALL = build();

  private Universe() {}

  private static Map<String, Value> build() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put("None", NoneValue.NONE);
    m.put("True", Bool.TRUE);
    m.put("False", Bool.FALSE);
    Builtins.register(m);
    return Collections.unmodifiableMap(m);
  }

  /** The universal value called {@code name}, or null; {@code set} only if {@code withSet}. */
  public static Value get(String name, boolean withSet) {
    if (!withSet && name.equals("set")) {
      return null;
    }
    return ALL.get(name);
  }

  /** The universal value called {@code name} (sets included), or null. */
  public static Value get(String name) {
    return ALL.get(name);
  }

  /** All universal names (including {@code set}). */
  public static Set<String> names() {
    return ALL.keySet();
  }

  /** Name -> value of every universal binding (including {@code set}). */
  public static Map<String, Value> all() {
    return ALL;
  }
}
