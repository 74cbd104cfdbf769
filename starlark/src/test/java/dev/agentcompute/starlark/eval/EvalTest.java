package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Evaluator semantics: binding, closures, scoping, argument passing and their error texts. */
class EvalTest {
  private static Object run(String body) throws Exception {
    Program p = Starlark.compile("e.star", body, Dialect.FULL, Set.of());
    StarlarkThread t = new StarlarkThread("t");
    Module m = p.init(t, Map.of());
    return Starlark.toJava(Starlark.call(t, m.global("main"), List.of(), Map.of()));
  }

  private static String error(String body) {
    try {
      run(body);
    } catch (EvalError e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("no error");
  }

  @Test
  void closuresShareCells() throws Exception {
    assertThat(run("def main():\n  x = 1\n  f = lambda: x\n  x = 2\n  return f()\n")).isEqualTo(2L);
    assertThat(
            run("def main():\n  fs = [lambda: i for i in [1, 2, 3]]\n  return [f() for f in fs]\n"))
        .isEqualTo(List.of(3L, 3L, 3L));
    assertThat(
            run(
                "def mk():\n  n = [0]\n  def inc():\n    n[0] += 1\n    return n[0]\n  return inc\n"
                    + "def main():\n  c = mk()\n  c()\n  return c()\n"))
        .isEqualTo(2L);
  }

  @Test
  void argumentBindingMatchesStarlarkGo() throws Exception {
    String f = "def f(a, b=2, *args, c, d=4, **kw):\n  return [a, b, args, c, d, kw]\n";
    assertThat(run(f + "def main():\n  return f(1, c=3)\n"))
        .isEqualTo(List.of(1L, 2L, List.of(), 3L, 4L, Map.of()));
    assertThat(run(f + "def main():\n  return f(1, 2, 9, c=3, z=5)\n"))
        .isEqualTo(List.of(1L, 2L, List.of(9L), 3L, 4L, Map.of("z", 5L)));
    assertThat(error(f + "def main():\n  return f(1)\n"))
        .isEqualTo("function f missing 1 argument (c)");
    assertThat(error("def g(a, b):\n  pass\ndef main():\n  g(1, 2, 3)\n"))
        .isEqualTo("function g accepts 2 positional arguments (3 given)");
    assertThat(error("def g(a, b=1):\n  pass\ndef main():\n  g(1, 2, 3)\n"))
        .isEqualTo("function g accepts at most 2 positional arguments (3 given)");
    assertThat(error("def g():\n  pass\ndef main():\n  g(1)\n"))
        .isEqualTo("function g accepts no arguments (1 given)");
    assertThat(error("def g(a):\n  pass\ndef main():\n  g(1, a=2)\n"))
        .isEqualTo("function g got multiple values for parameter \"a\"");
    assertThat(error("def g(a):\n  pass\ndef main():\n  g(e=2)\n"))
        .isEqualTo("function g got an unexpected keyword argument \"e\"");
    assertThat(error("def main():\n  x = None\n  x()\n"))
        .isEqualTo("invalid call of non-function (NoneType)");
  }

  @Test
  void variablesReferencedBeforeAssignment() {
    assertThat(error("def main():\n  print(x)\n  x = 1\n"))
        .isEqualTo("local variable x referenced before assignment");
    assertThat(error("def main():\n  return g\ndef other():\n  return 1\ng = main()\n"))
        .isEqualTo("global variable g referenced before assignment");
  }

  @Test
  void comprehensionsHaveTheirOwnBlock() throws Exception {
    assertThat(run("def main():\n  x = [[1, 2]]\n  return [x for x in x for y in x]\n"))
        .isEqualTo(List.of(List.of(1L, 2L), List.of(1L, 2L)));
    assertThat(run("def main():\n  return {k: v for k, v in [('a', 1), ('b', 2)] if v > 1}\n"))
        .isEqualTo(Map.of("b", 2L));
  }

  @Test
  void augmentedAssignmentEvaluatesTheTargetOnce() throws Exception {
    assertThat(
            run(
                "def main():\n  calls = []\n  def f(x):\n    calls.append(x)\n    return x\n"
                    + "  a = [0]\n  f(a)[f(0)] += f(5)\n  return [a, len(calls)]\n"))
        .isEqualTo(List.of(List.of(5L), 3L));
    assertThat(run("def main():\n  x = [1]\n  y = x\n  x += [2]\n  return y\n"))
        .isEqualTo(List.of(1L, 2L));
  }

  @Test
  void unpackingErrors() {
    assertThat(error("def main():\n  a, b = 1\n")).isEqualTo("got int in sequence assignment");
    assertThat(error("def main():\n  a, b = [1]\n"))
        .isEqualTo("too few values to unpack (got 1, want 2)");
    assertThat(error("def main():\n  a, b = [1, 2, 3]\n"))
        .isEqualTo("too many values to unpack (got 3, want 2)");
  }

  @Test
  void controlFlowUsesStatusCodesNotExceptions() throws Exception {
    assertThat(
            run(
                "def main():\n  out = []\n  for i in range(10):\n    if i == 2:\n      continue\n"
                    + "    if i == 5:\n      break\n    out.append(i)\n  return out\n"))
        .isEqualTo(List.of(0L, 1L, 3L, 4L));
    assertThat(
            run("def main():\n  n = 0\n  while True:\n    n += 1\n    if n > 3:\n      return n\n"))
        .isEqualTo(4L);
  }

  @Test
  void dictLiteralsRejectDuplicateKeys() {
    assertThat(error("def main():\n  return {'a': 1, 'a': 2}\n")).isEqualTo("duplicate key: \"a\"");
  }

  @Test
  void errorsPointAtTheFailingOperation() {
    assertThatThrownBy(() -> run("def main():\n  x = 1\n  return x +\\\n    'a'\n"))
        .isInstanceOf(EvalError.class)
        .satisfies(e -> assertThat(((EvalError) e).position().line()).isEqualTo(3));
  }
}
