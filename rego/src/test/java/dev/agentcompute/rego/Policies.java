package dev.agentcompute.rego;

import dev.agentcompute.rego.value.Json;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Compile-and-evaluate shortcuts for tests: results as compact JSON text. */
public final class Policies {
  private Policies() {}

  /**
   * The value of {@code data.<ref>} in a one-module policy (package given in {@code src}), JSON.
   */
  public static String value(String src, String ref) throws RegoException {
    return value(src, ref, null);
  }

  public static String value(String src, String ref, String inputJson) throws RegoException {
    RegoResult r = eval(Map.of("test.rego", src), "x = " + ref, options(inputJson));
    return r.isUndefined() ? "undefined" : Json.write(r.rows().get(0).get(0));
  }

  public static RegoOptions options(String inputJson) {
    RegoOptions o = RegoOptions.defaults().withStrictBuiltinErrors(true);
    if (inputJson != null) {
      try {
        o = o.withInput(Json.parse(inputJson));
      } catch (Json.ParseError e) {
        throw new IllegalArgumentException(e);
      }
    }
    return o;
  }

  public static RegoResult eval(Map<String, String> modules, String query, RegoOptions options)
      throws RegoException {
    return Rego.compile(modules).prepare(query).eval(options);
  }

  /** Each row of a query's result as a JSON object. */
  public static List<String> rows(String src, String query) throws RegoException {
    RegoResult r = eval(Map.of("test.rego", src), query, options(null));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < r.rows().size(); i++) {
      RegoObject.Builder b = new RegoObject.Builder();
      for (Map.Entry<String, RegoValue> e : r.row(i).entrySet()) {
        b.put(e.getKey(), e.getValue());
      }
      out.add(Json.write(b.build()));
    }
    return out;
  }

  /** The message of the compile error {@code src} fails with. */
  public static String compileError(String src) {
    try {
      Rego.compile(Map.of("test.rego", src));
    } catch (RegoCompileException e) {
      return e.getMessage();
    }
    throw new AssertionError("compiled: " + src);
  }

  /** The evaluation error of {@code data.<ref>}. */
  public static RegoEvalException evalError(String src, String ref, RegoOptions options) {
    try {
      eval(Map.of("test.rego", src), "x = " + ref, options);
    } catch (RegoEvalException e) {
      return e;
    } catch (RegoException e) {
      throw new AssertionError("did not compile: " + e.getMessage());
    }
    throw new AssertionError("evaluated: " + ref);
  }
}
