package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assertions;

/**
 * Random and mutated programs must end in a value, a Starlark error, a syntax error or a budget
 * error: never another Java exception, a hang, or a StackOverflowError.
 */
class InterpreterFuzzTest {
  private static final List<String> SEEDS = List.of(
      "def main():\n  xs = [i * i for i in range(10) if i % 2]\n  d = {k: v for k, v in enumerate(xs)}\n  return sorted(d.items(), key=lambda kv: -kv[1])\n",
      "def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\ndef main():\n  return fib(40)\n",
      "def main():\n  s = 'hello, world'\n  return [s.upper(), s.split(','), '%s-%d' % (s, 3), s[1:-1:2], s * 3]\n",
      "def f(a, b=2, *args, c=3, **kw):\n  return (a, b, args, c, kw)\ndef main():\n  return [f(1), f(1, 2, 3, c=4, d=5), f(*[1, 2], **{'c': 7})]\n",
      "def main():\n  total = 0\n  for i in range(1000000000):\n    total += i\n  return total\n",
      "def main():\n  x = []\n  for i in range(3):\n    x.append(lambda: i)\n  return [f() for f in x]\n",
      "def main():\n  return json.decode(json.encode({'a': [1, 2.5, None, True]}))\n");

  private static void runToCompletion(String src, Dialect dialect) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      StarlarkThread thread = new StarlarkThread("fuzz");
      thread.setMaxSteps(20_000);
      thread.setMaxAllocBytes(1 << 24);
      thread.setPrintHandler((t, msg) -> {});
      try {
        Program prog = Starlark.compile("fuzz.star", src, dialect, Set.of());
        Module m = prog.init(thread, Map.of());
        Value main = m.global("main");
        if (main != null) {
          Value v = Starlark.call(thread, main, List.of(), Map.of());
          assertThat(v).isNotNull();
        }
      } catch (SyntaxError e) {
        assertThat(e.errors()).isNotEmpty();
      } catch (EvalError e) {
        assertThat(e.getMessage()).isNotNull();
      }
      assertThat(thread.depth()).as("call stack unwound").isZero();
    });
  }

  @Provide
  Arbitrary<String> generated() {
    return Arbitraries.longs().map(ProgramGenerator::generate);
  }

  @Property(tries = 300)
  void generatedProgramsEndCleanly(@ForAll("generated") String src) {
    runToCompletion(src, Dialect.FULL);
    runToCompletion(src, Dialect.CODEMODE);
  }

  @Property(tries = 300)
  void mutatedProgramsEndCleanly(@ForAll("seedIndex") int seed, @ForAll long mutation) {
    String src = ProgramGenerator.mutate(SEEDS.get(seed), mutation);
    runToCompletion(src, Dialect.FULL);
    runToCompletion(src, Dialect.CODEMODE);
  }

  @Provide
  Arbitrary<Integer> seedIndex() {
    return Arbitraries.integers().between(0, SEEDS.size() - 1);
  }

  @Property(tries = 300)
  void tokenSoupEndsCleanly(@ForAll("soup") String src) {
    runToCompletion(src, Dialect.FULL);
  }

  @Provide
  Arbitrary<String> soup() {
    return Arbitraries.of("def", "main", "(", ")", ":", "\n", "    ", "return", "x", "=", "1", "[", "]",
            "{", "}", ",", "+", "*", "**", "lambda", "for", "in", "if", "else", "while", "'s'", "\"",
            "\\", "#", "not", "and", ".", "append", "range", "(1)", "\t", "0x", "1e9", "load")
        .list().ofMaxSize(60).map(l -> String.join(" ", l));
  }

  @Property(tries = 20)
  void deepNestingEndsCleanly(@ForAll("depths") int depth) {
    runToCompletion("x = " + "[".repeat(depth) + "]".repeat(depth) + "\n", Dialect.FULL);
    runToCompletion("def main():\n  return " + "-".repeat(depth) + "1\n", Dialect.FULL);
    runToCompletion("def r(n):\n  return r(n + 1)\ndef main():\n  return r(0)\n", Dialect.FULL);
    runToCompletion("def main():\n  x = []\n  for i in range(" + depth + "):\n    x = [x]\n  return str(x)\n", Dialect.FULL);
  }

  @Provide
  Arbitrary<Integer> depths() {
    return Arbitraries.integers().between(1, 20_000);
  }
}
