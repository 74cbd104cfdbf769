package dev.agentcompute.starlark.eval;

import java.util.Map;

/** The builtin functions of the Universe (spec §1.3). */
final class Builtins {
  private Builtins() {}

  static void register(Map<String, Value> m) {}
}
