package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.lib.MathModule;
import dev.agentcompute.starlark.lib.time.TimeModule;
import java.util.HashMap;
import java.util.Map;

/**
 * The predeclared environment of exec mode: json, math, and the requested test helpers. CodeMode's
 * {@code sum} builtin lives in the codemode module, which this CLI does not depend on.
 */
final class TestLibraries {
  private TestLibraries() {}

  /** CodeMode's library modules: json (decode, encode, indent) and math. */
  static Map<String, Value> codemode() {
    Map<String, Value> m = new HashMap<>();
    m.put("json", Json.codeModeModule());
    m.put("math", MathModule.module());
    return m;
  }

  static Map<String, Value> predeclared(TestEnv env) {
    Map<String, Value> m = codemode();
    if (env.features().contains("json_encode_indent")) {
      m.put("json", Json.fullModule());
    }
    if (env.features().contains("hasfields")) {
      m.put("hasfields", TestHelpers.hasfieldsConstructor());
    }
    if (env.features().contains("fibonacci")) {
      m.put("fibonacci", new TestHelpers.Fibonacci());
    }
    if (env.features().contains("struct")) {
      m.put("struct", StructValue.structBuiltin());
    }
    if (env.features().contains("gensym")) {
      m.put("gensym", StructValue.gensymBuiltin());
    }
    return m;
  }

  /** The lib/time module (feature {@code time}). */
  static Value time() {
    return TimeModule.create();
  }
}
