package dev.agentcompute.rego;

import dev.agentcompute.rego.compile.CompileFailure;
import dev.agentcompute.rego.compile.Compiler;
import dev.agentcompute.rego.compile.Problem;
import dev.agentcompute.rego.syntax.Parser;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.syntax.RegoSyntaxError;
import dev.agentcompute.rego.syntax.Term;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The front door: compile Rego v1 modules into a {@link RegoPolicy}, prepare queries on it and
 * evaluate them with {@link RegoOptions} (input, data, step budget, cancellation). Builtins that
 * OPA marks nondeterministic (network, time, randomness, UUIDs, runtime) do not exist here, so a
 * policy using one fails to compile; {@code print} statements are compiled out.
 */
public final class Rego {
  private Rego() {}

  /** Compiles modules keyed by file name (compiled in sorted name order). */
  public static RegoPolicy compile(Map<String, String> modules) throws RegoCompileException {
    try {
      return new RegoPolicy(Compiler.compile(new TreeMap<>(modules)));
    } catch (CompileFailure f) {
      throw Failures.of(f);
    }
  }

  /**
   * Parses a reference to a document under {@code data} ({@code data.a.b}, {@code data["a"].b};
   * surrounding whitespace is allowed) into its path below {@code data}.
   *
   * @throws RegoCompileException if {@code ref} is not a reference, not rooted at {@code data}, or
   *     not ground (has variables)
   */
  public static List<RegoValue> parseDataRef(String ref) throws RegoCompileException {
    Term t;
    try {
      t = Parser.parseTerm("ref", ref);
    } catch (RegoSyntaxError e) {
      throw problem("rego_parse_error", e.position(), e.detail());
    }
    if (!(t instanceof Term.Ref r)
        || !(r.head() instanceof Term.Var v)
        || !v.name().equals("data")) {
      throw problem(
          "rego_parse_error", t.pos(), "not a reference to a document under data: " + ref.strip());
    }
    List<RegoValue> path = new ArrayList<>();
    for (Term step : r.path()) {
      if (!(step instanceof Term.Scalar s)) {
        throw problem("rego_parse_error", step.pos(), "reference is not ground: " + ref.strip());
      }
      path.add(s.value());
    }
    return List.copyOf(path);
  }

  /**
   * Evaluates a ground term written in Rego ({@code {"a": {1, 2}}}, {@code "s"}, {@code 1.0}), such
   * as an {@code input_term} of OPA's compliance cases.
   */
  public static RegoValue parseValue(String text) throws RegoException {
    RegoPolicy empty = compile(Map.of());
    RegoResult r =
        empty
            .prepare("__value__ = " + text)
            .eval(RegoOptions.defaults().withStrictBuiltinErrors(true));
    if (r.rows().isEmpty() || !r.variables().equals(List.of("__value__"))) {
      throw problem("rego_parse_error", new Position("value", 1, 1), "not a ground value: " + text);
    }
    return r.rows().get(0).get(0);
  }

  private static RegoCompileException problem(String code, Position pos, String message) {
    return Failures.of(new CompileFailure(List.of(new Problem(code, pos, message))));
  }
}
