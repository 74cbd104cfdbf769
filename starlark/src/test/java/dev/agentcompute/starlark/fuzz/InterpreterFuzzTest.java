package dev.agentcompute.starlark.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.eval.StarlarkThread;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assertions;

/**
 * The short version of the interpreter fuzz job (bench/starlark-fuzz/run runs a million programs):
 * generated programs, token-level mutations of the corpus (bench/starlark/programs and
 * starlark-go's test files under src/test/conformance), token soup and deep nesting end in a value,
 * a syntax error, a Starlark error or a budget error, with positions and the call stack unwound:
 * never another Java exception or a hang (the watchdog below is generous; nothing here is a speed
 * test).
 */
class InterpreterFuzzTest {
  private static final List<String> CORPUS = Corpus.load(Corpus.defaultDirs());
  private static final FuzzTarget TARGET = new FuzzTarget(20_000, 16 << 20);

  private static void endsCleanly(String src, Dialect dialect) {
    FuzzTarget.Outcome o =
        Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(60), () -> TARGET.run(src, dialect, new StarlarkThread("fuzz")));
    assertThat(o.isDefect()).as("%s\n--- program:\n%s", o.detail(), src).isFalse();
  }

  private static void endsCleanlyInBothDialects(String src) {
    endsCleanly(src, Dialect.CODEMODE);
    endsCleanly(src, Dialect.FULL);
  }

  @Property(tries = 300)
  void generatedProgramsEndCleanly(@ForAll long seed) {
    endsCleanlyInBothDialects(ProgramGenerator.generate(seed));
  }

  @Property(tries = 300)
  void mutatedCorpusProgramsEndCleanly(@ForAll("corpusIndex") int index, @ForAll long seed) {
    endsCleanlyInBothDialects(Mutator.mutate(CORPUS.get(index), seed));
  }

  @Provide
  Arbitrary<Integer> corpusIndex() {
    return Arbitraries.integers().between(0, CORPUS.size() - 1);
  }

  @Property(tries = 100)
  void mutatedGeneratedProgramsEndCleanly(@ForAll long seed, @ForAll long mutation) {
    endsCleanlyInBothDialects(Mutator.mutate(ProgramGenerator.generate(seed), mutation));
  }

  @Property(tries = 300)
  void tokenSoupEndsCleanly(@ForAll("soup") String src) {
    endsCleanly(src, Dialect.FULL);
  }

  @Provide
  Arbitrary<String> soup() {
    return Arbitraries.of(
            "def", "main", "(", ")", ":", "\n", "    ", "return", "x", "=", "1", "[", "]", "{", "}",
            ",", "+", "*", "**", "lambda", "for", "in", "if", "else", "while", "'s'", "\"", "\\",
            "#", "not", "and", ".", "append", "range", "(1)", "\t", "0x", "1e9", "load", "<<",
            "511")
        .list()
        .ofMaxSize(60)
        .map(l -> String.join(" ", l));
  }

  @Property(tries = 20)
  void deepNestingEndsCleanly(@ForAll("depths") int depth) {
    endsCleanly("x = " + "[".repeat(depth) + "]".repeat(depth) + "\n", Dialect.FULL);
    endsCleanly("def main():\n  return " + "-".repeat(depth) + "1\n", Dialect.FULL);
    endsCleanly("def r(n):\n  return r(n + 1)\ndef main():\n  return r(0)\n", Dialect.FULL);
    endsCleanly(
        "def main():\n  x = []\n  for i in range(" + depth + "):\n    x = [x]\n  return str(x)\n",
        Dialect.FULL);
    endsCleanly("def main():\n  return json.decode('[' * " + depth + ")\n", Dialect.CODEMODE);
  }

  @Provide
  Arbitrary<Integer> depths() {
    return Arbitraries.integers().between(1, 20_000);
  }
}
