package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Call stacks of runtime errors read as starlark-go's EvalError.Backtrace() prints them. */
class BacktraceTest {
  private static EvalError fails(String src) {
    return catchThrowableOfType(
        EvalError.class,
        () ->
            Starlark.compile("b.star", src, Dialect.FULL, Set.of())
                .init(new StarlarkThread("t"), Map.of()));
  }

  @Test
  void anErrorRaisedInsideABuiltinIsReportedInThatBuiltin() {
    assertThat(fails("len(1)\n").traceback())
        .isEqualTo(
            "Traceback (most recent call last):\n"
                + "  b.star:1:4: in <toplevel>\n"
                + "Error in len: len: value of type int has no len");
  }

  @Test
  void anErrorInStarlarkCodeIsReportedWithoutAFunctionName() {
    assertThat(fails("def f(x):\n  return x + 'a'\nf(1)\n").traceback())
        .isEqualTo(
            "Traceback (most recent call last):\n"
                + "  b.star:3:2: in <toplevel>\n"
                + "  b.star:2:12: in f\n"
                + "Error: unknown binary op: int + string");
  }

  @Test
  void aBuiltinThatCalledBackIntoStarlarkIsListedBetweenItsCallerAndTheCallee() {
    assertThat(fails("sorted([1], key=lambda x: len(x))\n").traceback())
        .isEqualTo(
            "Traceback (most recent call last):\n"
                + "  b.star:1:7: in <toplevel>\n"
                + "  <builtin>: in sorted\n"
                + "  b.star:1:30: in lambda\n"
                + "Error in len: len: value of type int has no len");
  }

  @Test
  void aBuiltinCalledBackByABuiltinIsTheInnermostFrame() {
    assertThat(fails("sorted([1], key=len)\n").traceback())
        .isEqualTo(
            "Traceback (most recent call last):\n"
                + "  b.star:1:7: in <toplevel>\n"
                + "  <builtin>: in sorted\n"
                + "Error in len: len: value of type int has no len");
  }

  @Test
  void theBuiltinsFrameIsTheLastEntryOfTheBacktrace() {
    EvalError e = fails("len(1)\n");
    assertThat(e.backtrace()).last().satisfies(f -> assertThat(f.isBuiltin()).isTrue());
    assertThat(e.backtrace().getLast().function()).isEqualTo("len");
  }

  @Test
  void thePositionOfABuiltinsErrorIsItsCallSite() {
    assertThat(fails("x = 1\nlen(x)\n").position().toString()).isEqualTo("b.star:2:4");
  }

  @Test
  void mismatchedArgumentsAreReportedInTheCalledFunctionAtItsDef() {
    EvalError e = fails("def f(a):\n  return a\nf(1, 2)\n");
    assertThat(e.traceback())
        .isEqualTo(
            "Traceback (most recent call last):\n"
                + "  b.star:3:2: in <toplevel>\n"
                + "  b.star:1:1: in f\n"
                + "Error: function f accepts 1 positional argument (2 given)");
  }

  @Test
  void aRecursiveCallIsReportedInTheFunctionCalledAgain() {
    EvalError e =
        catchThrowableOfType(
            EvalError.class,
            () ->
                Starlark.compile(
                        "b.star", "def f():\n  return f()\nf()\n", Dialect.CODEMODE, Set.of())
                    .init(new StarlarkThread("t"), Map.of()));
    assertThat(e.getMessage()).isEqualTo("function f called recursively");
    assertThat(e.backtrace())
        .extracting(EvalError.StackEntry::function)
        .containsExactly("<toplevel>", "f", "f");
  }
}
