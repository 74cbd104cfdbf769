package dev.agentcompute.rego.lib;

import java.util.HashMap;
import java.util.Map;

/** Collects the builtins each group defines; used once to build {@link Builtins}. */
final class Registry {
  private final Map<String, Builtin> map = new HashMap<>();

  void add(String name, int arity, Builtin.Function fn) {
    put(new Builtin(name, arity, false, fn));
  }

  void relation(String name, int arity, Builtin.Function fn) {
    put(new Builtin(name, arity, true, fn));
  }

  private void put(Builtin b) {
    if (map.putIfAbsent(b.name(), b) != null) {
      throw new IllegalStateException("builtin " + b.name() + " defined twice");
    }
  }

  Map<String, Builtin> build() {
    return Map.copyOf(map);
  }
}
