package dev.agentcompute.rego.lib;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every builtin function the evaluator offers, by name. Nondeterministic builtins (network, time,
 * randomness, UUIDs, runtime) are deliberately absent, so a policy using one fails to compile; see
 * {@link #unavailableReason}.
 */
public final class Builtins {
  private Builtins() {}

  private static final Map<String, Builtin> ALL = load();

  private static Map<String, Builtin> load() {
    Registry r = new Registry();
    Comparison.register(r);
    Arithmetic.register(r);
    Aggregates.register(r);
    Bits.register(r);
    Strings.register(r);
    StringsMore.register(r);
    Sprintf.register(r);
    Regex.register(r);
    Glob.register(r);
    SetFns.register(r);
    ObjectFns.register(r);
    JsonPaths.register(r);
    ArrayFns.register(r);
    Types.register(r);
    Encoding.register(r);
    Cidr.register(r);
    Units.register(r);
    Semver.register(r);
    Walk.register(r);
    return r.build();
  }

  /** The builtin named {@code name} (e.g. {@code count}, {@code net.cidr_contains}), or null. */
  public static Builtin lookup(String name) {
    return ALL.get(name);
  }

  /** Every builtin's name, sorted. */
  public static Set<String> names() {
    return new TreeSet<>(ALL.keySet());
  }

  private static final Set<String> NONDETERMINISTIC_PREFIXES =
      Set.of(
          "time.",
          "rand.",
          "uuid.",
          "http.",
          "net.lookup_ip_addr",
          "opa.runtime",
          "io.jwt.encode_sign");

  private static final Set<String> NONDETERMINISTIC =
      Set.of(
          "http.send",
          "net.lookup_ip_addr",
          "opa.runtime",
          "trace",
          "rand.intn",
          "uuid.rfc4122",
          "time.now_ns");

  /**
   * Why a known OPA builtin is not available here, or null if the name is simply unknown.
   * Nondeterministic builtins are removed on purpose (an authorization decision must depend only on
   * its input and policy).
   */
  public static String unavailableReason(String name) {
    if (NONDETERMINISTIC.contains(name)) {
      return "nondeterministic built-in functions are not available";
    }
    for (String p : NONDETERMINISTIC_PREFIXES) {
      if (name.startsWith(p)) {
        return "nondeterministic built-in functions are not available";
      }
    }
    if (name.startsWith("crypto.")
        || name.startsWith("io.jwt.")
        || name.startsWith("graphql.")
        || name.startsWith("providers.")
        || name.startsWith("rego.")) {
      return "built-in function not supported by this evaluator";
    }
    return null;
  }
}
