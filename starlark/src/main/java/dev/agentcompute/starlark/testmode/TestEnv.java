package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.Dialect;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The STARLARK_TEST_* settings of the conformance runner's test mode
 * (docs/reference/starlark.md#test-mode).
 */
record TestEnv(
    String mode,
    Set<String> predeclared,
    Set<String> options,
    Set<String> features,
    boolean stripLoads) {

  static TestEnv from(Map<String, String> env) {
    return new TestEnv(
        env.getOrDefault("STARLARK_TEST_MODE", "exec").isEmpty()
            ? "exec"
            : env.get("STARLARK_TEST_MODE"),
        list(env.get("STARLARK_TEST_PREDECLARED")),
        list(env.get("STARLARK_TEST_OPTIONS")),
        list(env.get("STARLARK_TEST_FEATURES")),
        "1".equals(env.get("STARLARK_TEST_STRIP_LOADS")));
  }

  private static Set<String> list(String s) {
    Set<String> out = new LinkedHashSet<>();
    if (s != null) {
      Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(out::add);
    }
    return out;
  }

  /** The dialect named by the options; loading is always possible in test mode. */
  Dialect dialect() {
    return new Dialect(
        options.contains("set"),
        options.contains("while"),
        options.contains("toplevelcontrol"),
        options.contains("globalreassign"),
        options.contains("recursion"),
        true,
        options.contains("loadbindsglobally"));
  }
}
