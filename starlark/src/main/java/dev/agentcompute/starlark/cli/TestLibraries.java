package dev.agentcompute.starlark.cli;

import dev.agentcompute.starlark.eval.Value;
import java.util.HashMap;
import java.util.Map;

/** The predeclared environment of exec mode: sum, json, math, and the requested test helpers. */
final class TestLibraries {
  private TestLibraries() {}

  static Map<String, Value> predeclared(TestEnv env) {
    Map<String, Value> m = new HashMap<>();
    return m;
  }

  static Value time() {
    return null;
  }
}
