package dev.agentcompute.starlark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.eval.CancelledException;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkFunction;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.StepLimitException;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The front door under the CodeMode dialect (docs/reference/starlark.md#codemode-dialect). */
class StarlarkTest {
  private static Value runMain(StarlarkThread thread, String src) throws Exception {
    Program prog = Starlark.compile("<codemode>", src, Dialect.CODEMODE, Set.of());
    Module m = prog.init(thread, Map.of());
    return Starlark.call(thread, m.global("main"), List.of(), Map.of());
  }

  private static Value runMain(String src) throws Exception {
    return runMain(new StarlarkThread("test"), src);
  }

  @Test
  void runsMainAndConvertsTheResult() throws Exception {
    Value v =
        runMain(
            "def helper(x, *, k=2):\n  return x * k\ndef main():\n  return {'a': [helper(1), helper(2, k=3)], 'b': (True, None, 1.5, 'é')}\n");
    Map<Object, Object> expected = new LinkedHashMap<>();
    List<Object> inner = new ArrayList<>();
    inner.add(true);
    inner.add(null);
    inner.add(1.5);
    inner.add("é");
    expected.put("a", List.of(2L, 6L));
    expected.put("b", inner);
    assertThat(Starlark.toJava(v)).isEqualTo(expected);
  }

  @Test
  void globalsAreFrozenBeforeMain() {
    assertThatThrownBy(() -> runMain("G = []\ndef main():\n  G.append(1)\n  return G\n"))
        .isInstanceOf(EvalError.class)
        .hasMessage("append: cannot append to frozen list");
    assertThatThrownBy(() -> runMain("D = {}\ndef main():\n  D['k'] = 1\n"))
        .isInstanceOf(EvalError.class)
        .hasMessage("cannot insert into frozen hash table");
  }

  @Test
  void loadIsDisabled() {
    assertThatThrownBy(() -> runMain("load('foo.star', 'x')\ndef main():\n  return x\n"))
        .isInstanceOf(EvalError.class)
        .hasMessage("cannot load foo.star: module loading is disabled")
        .satisfies(e -> assertThat(((EvalError) e).position().line()).isEqualTo(1));
  }

  @Test
  void printGoesToTheHandler() throws Exception {
    StarlarkThread thread = new StarlarkThread("test");
    List<String> printed = new ArrayList<>();
    thread.setPrintHandler((t, msg) -> printed.add(msg));
    runMain(thread, "def main():\n  print('a', 1)\n  return None\n");
    assertThat(printed).containsExactly("a 1");
    StarlarkThread quiet = new StarlarkThread("quiet");
    quiet.setPrintHandler(null);
    assertThat(Starlark.toJava(runMain(quiet, "def main():\n  print('discarded')\n  return 7\n")))
        .isEqualTo(7L);
  }

  @Test
  void stepLimitStopsInfiniteWork() {
    StarlarkThread thread = new StarlarkThread("test");
    thread.setMaxSteps(10_000);
    assertThatThrownBy(
            () ->
                runMain(
                    thread,
                    "def main():\n  n = 0\n  for i in range(100000000):\n    n += i\n  return n\n"))
        .isInstanceOf(EvalError.class)
        .satisfies(
            e -> assertThat(((EvalError) e).budget()).isInstanceOf(StepLimitException.class));
    assertThat(thread.steps()).isGreaterThan(10_000);
  }

  @Test
  void stepsAreChargedPerOperation() throws Exception {
    StarlarkThread small = new StarlarkThread("a");
    runMain(small, "def main():\n  n = 0\n  for i in range(10):\n    n += i\n  return n\n");
    StarlarkThread big = new StarlarkThread("b");
    runMain(big, "def main():\n  n = 0\n  for i in range(1000):\n    n += i\n  return n\n");
    assertThat(big.steps()).isGreaterThan(50 * small.steps());
  }

  @Test
  void cancellationIsPrompt() throws Exception {
    StarlarkThread thread = new StarlarkThread("test");
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
              }
              thread.cancel("deadline");
            });
    canceller.start();
    long t0 = System.nanoTime();
    assertThatThrownBy(
            () ->
                runMain(
                    thread,
                    "def main():\n  n = 0\n  for i in range(1000000000):\n    n += 1\n  return n\n"))
        .isInstanceOf(EvalError.class)
        .satisfies(
            e -> assertThat(((EvalError) e).budget()).isInstanceOf(CancelledException.class));
    assertThat(System.nanoTime() - t0).isLessThan(10_000_000_000L);
    canceller.join();
  }

  @Test
  void recursionIsBanned() {
    assertThatThrownBy(
            () ->
                runMain(
                    "def fib(n):\n  return n if n < 2 else fib(n-1) + fib(n-2)\ndef main():\n  return fib(5)\n"))
        .isInstanceOf(EvalError.class)
        .hasMessage("function fib called recursively");
  }

  @Test
  void deepRecursionInFullDialectIsAStarlarkError() throws Exception {
    Program prog =
        Starlark.compile("deep.star", "def r(n):\n  return r(n + 1)\n", Dialect.FULL, Set.of());
    StarlarkThread thread = new StarlarkThread("deep");
    Module m = prog.init(thread, Map.of());
    assertThatThrownBy(
            () -> Starlark.call(thread, m.global("r"), List.of(Starlark.fromJava(0)), Map.of()))
        .isInstanceOf(EvalError.class)
        .hasMessage("Starlark stack overflow");
    assertThat(thread.depth()).isZero();
  }

  @Test
  void syntaxAndResolveErrorsCarryPositions() {
    assertThatThrownBy(
            () ->
                Starlark.compile(
                    "<codemode>", "def main():\n  return 2 ** 3\n", Dialect.CODEMODE, Set.of()))
        .isInstanceOf(SyntaxError.class)
        .hasMessage("<codemode>:2:12: got '**', want newline");
    assertThatThrownBy(
            () -> Starlark.compile("<codemode>", "x = 1\nx = 2\n", Dialect.CODEMODE, Set.of()))
        .isInstanceOf(SyntaxError.class)
        .hasMessage("<codemode>:2:1: cannot reassign global x declared at <codemode>:1:1");
  }

  @Test
  void runtimeErrorsCarryTheCallStack() {
    try {
      runMain("def inner(x):\n  return x + 'a'\ndef main():\n  return inner(1)\n");
      throw new AssertionError("expected an error");
    } catch (EvalError e) {
      assertThat(e.getMessage()).isEqualTo("unknown binary op: int + string");
      assertThat(e.backtrace())
          .extracting(EvalError.StackEntry::function)
          .containsExactly("main", "inner");
      assertThat(e.position().line()).isEqualTo(2);
      assertThat(e.backtrace().get(0).pos().line()).isEqualTo(4);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void mainShapeIsInspectable() throws Exception {
    Program prog =
        Starlark.compile(
            "<codemode>",
            "def main(x=1):\n  return x\nlam = lambda: 1\n",
            Dialect.CODEMODE,
            Set.of());
    Module m = prog.init(new StarlarkThread("t"), Map.of());
    StarlarkFunction main = (StarlarkFunction) m.global("main");
    assertThat(main.numParams()).isEqualTo(1);
    assertThat(main.hasVarargs()).isFalse();
    assertThat(((StarlarkFunction) m.global("lam")).name()).isEqualTo("lambda");
    assertThat(prog.globalNames()).containsExactly("main", "lam");
  }

  @Test
  void predeclaredValuesAreVisible() throws Exception {
    Program prog =
        Starlark.compile(
            "<codemode>", "def main():\n  return limit * 2\n", Dialect.CODEMODE, Set.of("limit"));
    StarlarkThread thread = new StarlarkThread("t");
    Module m =
        prog.init(
            thread, Map.of("limit", Starlark.fromJava(new BigInteger("100000000000000000000"))));
    assertThat(Starlark.toJava(Starlark.call(thread, m.global("main"), List.of(), Map.of())))
        .isEqualTo(new BigInteger("200000000000000000000"));
  }
}
