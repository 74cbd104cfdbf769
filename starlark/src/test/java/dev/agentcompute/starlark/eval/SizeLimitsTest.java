package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.call;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.method;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentcompute.starlark.syntax.Token;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Values built from shared sub-structures stay bounded: no OutOfMemoryError, no exponential work.
 */
class SizeLimitsTest {
  private final StarlarkThread t = new StarlarkThread();

  @Test
  void printingAnExponentiallySharedValueFailsCleanly() throws Exception {
    Value row = Operators.binary(t, Token.STAR, list(s("x".repeat(1000))), i(1000));
    Value grid = Operators.binary(t, Token.STAR, list(row), i(1000)); // repr would be ~1e9 bytes
    assertThatThrownBy(() -> call(t, "str", grid))
        .hasMessageStartingWith("value too large to print");
    assertThatThrownBy(() -> Operators.binary(t, Token.PERCENT, s("%s"), grid))
        .hasMessageStartingWith("value too large to print");
  }

  @Test
  void printingAnExponentiallySharedValueIsChargedAsItPrints() throws Exception {
    StarlarkThread limited = new StarlarkThread();
    limited.setMaxSteps(10_000);
    StarlarkList l = list(i(1), s("a"));
    for (int k = 0; k < 60; k++) {
      l.append(Operators.slice(l, null, null, null)); // l.append(l[:]): 2^60 elements to print
    }
    assertThatThrownBy(() -> call(limited, "str", l)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void aHugeKeyInAnErrorMessageIsCutRatherThanPrintedWhole() {
    Value key = Tuple.of(i(1), s("a"));
    for (int k = 0; k < 60; k++) {
      key = Tuple.of(key, key);
    }
    Value missing = key;
    assertThatThrownBy(() -> Operators.index(new Dict(), missing))
        .isInstanceOf(EvalException.class)
        .hasMessageStartingWith("key ((((")
        .hasMessageEndingWith("... not in dict");
  }

  @Test
  void allocationBudgetBoundsPrinting() throws Exception {
    StarlarkThread limited = new StarlarkThread();
    limited.setMaxAllocBytes(10_000);
    Value row = Operators.binary(Token.STAR, list(s("x".repeat(100))), i(1000));
    assertThatThrownBy(() -> call(limited, "repr", row))
        .isInstanceOf(AllocationLimitException.class);
  }

  @Test
  void sharedTuplesHashAndFreezeInLinearTime() throws Exception {
    Value tup = Tuple.of(i(1), s("a"));
    for (int k = 0; k < 200; k++) {
      tup = Tuple.of(tup, tup);
    }
    Value deep = tup;
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          deep.hash();
          deep.freeze();
          Dict d = new Dict();
          d.put(deep, i(1));
          assertThat(d.get(deep)).isEqualTo(i(1));
        });
  }

  @Test
  void hugeResultsAreRefusedBeforeAllocating() {
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, s("x"), i(1 << 29)))
        .hasMessage("excessive repeat (1 * 536870912 elements)");
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, list(i(1)), i(1 << 26)))
        .hasMessage("excessive repeat (1 * 67108864 elements)");
    assertThatThrownBy(() -> call(t, "list", call(t, "range", i(1 << 30))))
        .hasMessageStartingWith("too many elements");
  }

  @Test
  void substringSearchIsLinear() throws Exception {
    String hay = "a".repeat(400_000) + "b";
    String needle = "a".repeat(200_000) + "b";
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          assertThat(Operators.in(s(needle), s(hay))).isTrue();
          assertThat(method(t, s(hay), "rfind", s(needle))).isEqualTo(i(200_000));
          assertThat(method(t, s(hay), "count", s("a".repeat(100)))).isEqualTo(i(4000));
          assertThat(method(t, s(hay), "find", s("a".repeat(100) + "c"))).isEqualTo(i(-1));
        });
  }
}
