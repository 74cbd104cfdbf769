package dev.agentcompute.rego;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random and mutated policies and inputs end in a value, a compile error or an evaluation error
 * (most often the step budget): never another Java exception, an internal error or a hang.
 */
class FuzzTest {

  /** Wall-clock bound per evaluation; the step budget should end runaway ones long before. */
  private static final long DEADLINE_NANOS = 5_000_000_000L;

  @Property(tries = 1000)
  void generatedPoliciesCompileOrFailCleanly(
      @ForAll("policies") String src, @ForAll("values") RegoValue input) {
    check(src, input);
  }

  @Property(tries = 1000)
  void mutatedPoliciesCompileOrFailCleanly(
      @ForAll("mutants") String src, @ForAll("values") RegoValue input) {
    check(src, input);
  }

  private static void check(String src, RegoValue input) {
    RegoPolicy policy;
    try {
      policy = Rego.compile(Map.of("fuzz.rego", src));
    } catch (RegoCompileException e) {
      assertThat(e.problems()).isNotEmpty();
      Statistics.label("outcome").collect("compile error " + e.problems().get(0).code());
      return;
    }
    for (String query : List.of("x = data.t", "x = data.t.p", "data.t.f(input) = x")) {
      RegoQuery q;
      try {
        q = policy.prepare(query);
      } catch (RegoCompileException e) {
        continue;
      }
      long deadline = System.nanoTime() + DEADLINE_NANOS;
      for (boolean strict : new boolean[] {false, true}) {
        RegoOptions o =
            RegoOptions.defaults()
                .withInput(input)
                .withStrictBuiltinErrors(strict)
                .withMaxSteps(20_000)
                .withCancellation(() -> System.nanoTime() > deadline);
        try {
          q.eval(o);
          Statistics.label("outcome").collect("evaluated");
        } catch (RegoEvalException e) {
          Statistics.label("outcome").collect("eval error " + e.kind());
          assertThat(e.kind())
              .as("%s\n--- policy:\n%s", e.getMessage(), src)
              .isNotIn(RegoEvalException.Kind.INTERNAL, RegoEvalException.Kind.CANCELED);
        }
      }
    }
  }

  // ---- generators ----

  @Provide
  Arbitrary<RegoValue> values() {
    return value(3);
  }

  private static Arbitrary<RegoValue> value(int depth) {
    Arbitrary<RegoValue> scalar =
        Arbitraries.oneOf(
            Arbitraries.just(RegoNull.NULL),
            Arbitraries.of(RegoBoolean.TRUE, RegoBoolean.FALSE),
            Arbitraries.longs().between(-5, 5).map(RegoNumber::of),
            Arbitraries.of("a", "b", "", "x.y", "ø").map(RegoString::of));
    if (depth == 0) {
      return scalar;
    }
    Arbitrary<RegoValue> sub = value(depth - 1);
    return Arbitraries.oneOf(
        scalar,
        sub.list().ofMaxSize(3).map(RegoArray::of),
        Combinators.combine(Arbitraries.of("a", "b", "c", "k"), sub)
            .as((k, v) -> new RegoObject.Builder().put(k, v))
            .list()
            .ofMaxSize(3)
            .map(
                bs -> {
                  RegoObject.Builder all = new RegoObject.Builder();
                  for (RegoObject.Builder b : bs) {
                    RegoObject o = b.build();
                    all.put(o.key(0), o.value(0));
                  }
                  return (RegoValue) all.build();
                }));
  }

  private static Arbitrary<String> term(int depth) {
    Arbitrary<String> leaf =
        Arbitraries.of(
            "1",
            "0",
            "-2",
            "2.5",
            "\"a\"",
            "\"\"",
            "true",
            "false",
            "null",
            "[1, 2]",
            "{\"a\": 1, \"b\": [2]}",
            "{1, \"a\"}",
            "set()",
            "x",
            "y",
            "z",
            "input",
            "input.a",
            "input.b[_]",
            "input[k]",
            "data.t.q",
            "q",
            "xs",
            "xs[i]",
            "data.t.s[_]");
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<String> t = term(depth - 1);
    return Arbitraries.oneOf(
        leaf,
        leaf,
        t.map(a -> "count(" + a + ")"),
        t.map(a -> "sort(" + a + ")"),
        t.map(a -> "f(" + a + ")"),
        t.map(a -> "numbers.range(0, " + a + ")"),
        t.map(a -> "sprintf(\"%v-%d\", [" + a + "])"),
        t.map(a -> "[v | some v in " + a + "]"),
        t.map(a -> "{k2: v2 | some k2, v2 in " + a + "}"),
        t.map(a -> "{v3 | v3 := " + a + "[_]}"),
        t.map(a -> "walk(" + a + ")"),
        Combinators.combine(t, t).as((a, b) -> a + " + " + b),
        Combinators.combine(t, t).as((a, b) -> a + " | " + b),
        Combinators.combine(t, t).as((a, b) -> a + " == " + b),
        Combinators.combine(t, t).as((a, b) -> "object.get(" + a + ", " + b + ", 0)"),
        Combinators.combine(t, t).as((a, b) -> "concat(" + a + ", " + b + ")"),
        Combinators.combine(t, t).as((a, b) -> a + "[" + b + "]"));
  }

  private static Arbitrary<String> literal() {
    Arbitrary<String> t = term(2);
    return Arbitraries.oneOf(
        Combinators.combine(t, t).as((a, b) -> a + " = " + b),
        t.map(a -> "x := " + a),
        t.map(a -> "y := " + a),
        t,
        t.map(a -> "not " + a),
        t.map(a -> "some x in " + a),
        t.map(a -> "some k, i in " + a),
        Combinators.combine(t, t).as((a, b) -> "every e in " + a + " { e != " + b + " }"),
        Combinators.combine(t, t).as((a, b) -> a + " with input as " + b),
        Combinators.combine(t, t).as((a, b) -> a + " with data.t.q as " + b),
        Combinators.combine(t, t).as((a, b) -> a + " in " + b),
        Combinators.combine(t, t).as((a, b) -> a + " > " + b));
  }

  private static Arbitrary<String> body() {
    return literal()
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .map(ls -> "{\n  " + String.join("\n  ", ls) + "\n}");
  }

  private static Arbitrary<String> rule() {
    Arbitrary<String> t = term(2);
    Arbitrary<String> b = body();
    return Arbitraries.oneOf(
        Combinators.combine(t, b).as((v, bd) -> "p := " + v + " if " + bd),
        Combinators.combine(t, b).as((v, bd) -> "q contains " + v + " if " + bd),
        Combinators.combine(t, t, b).as((k, v, bd) -> "r[" + k + "] := " + v + " if " + bd),
        Combinators.combine(t, b).as((v, bd) -> "f(a) := " + v + " if " + bd),
        Combinators.combine(t, b).as((v, bd) -> "s contains " + v + " if " + bd),
        t.map(v -> "xs := " + v),
        t.map(v -> "default p := " + v),
        b.map(bd -> "p if " + bd + " else := 0"),
        b.map(bd -> "g if " + bd));
  }

  @Provide
  Arbitrary<String> policies() {
    return rule()
        .list()
        .ofMinSize(1)
        .ofMaxSize(5)
        .map(rs -> "package t\n\n" + String.join("\n\n", rs) + "\n");
  }

  private static final List<String> SEEDS =
      List.of(
          "package t\n\ndefault p := false\n\np if {\n  some x in input.b\n  x == input.a\n  not q[x]\n}\n\nq contains y if y := input.b[_]\n",
          "package t\n\nf(x) := y if { y := x + 1 } else := 0\n\np := [f(1), f(\"a\")]\n\nr[k] := v if some k, v in {\"a\": 1}\n",
          "package t\n\nxs := numbers.range(1, 10)\n\np := {x: y | some x in xs; y := x * 2}\n\ns contains z if { every w in xs { w > 0 }; z := count(xs) }\n",
          "package t\n\np := y if { y := data.t.q with data.t.q as [1] }\n\nq := sprintf(\"%v\", [input])\n\nf(a) := concat(\",\", a)\n");

  private static final List<String> TOKENS =
      List.of(
          "{",
          "}",
          "[",
          "]",
          "(",
          ")",
          "|",
          ":=",
          "=",
          "==",
          ",",
          ";",
          "\n",
          " ",
          "with",
          "as",
          "not",
          "some",
          "every",
          "in",
          "if",
          "else",
          "contains",
          "default",
          "x",
          "_",
          ".",
          "\"",
          "`",
          "#",
          "1e9",
          "input",
          "data.t",
          "-");

  @Provide
  Arbitrary<String> mutants() {
    Arbitrary<String> seed = Arbitraries.of(SEEDS);
    Arbitrary<Integer> pos = Arbitraries.integers().between(0, 400);
    Arbitrary<String> token = Arbitraries.of(TOKENS);
    Arbitrary<Integer> kind = Arbitraries.integers().between(0, 2);
    return Combinators.combine(seed, pos, pos, token, kind, pos)
        .as(
            (s, a, b, tok, k, c) -> {
              int i = Math.min(a, s.length());
              int j = Math.min(i + b % 8, s.length());
              String once =
                  switch (k) {
                    case 0 -> s.substring(0, i) + s.substring(j);
                    case 1 -> s.substring(0, i) + tok + s.substring(i);
                    default -> s.substring(0, i) + tok + s.substring(j);
                  };
              int m = Math.min(c, once.length());
              return once.substring(0, m) + (c % 2 == 0 ? tok : "") + once.substring(m);
            });
  }
}
