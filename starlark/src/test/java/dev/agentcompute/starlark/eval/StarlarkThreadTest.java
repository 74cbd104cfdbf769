package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.call;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.method;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StarlarkThreadTest {
  @Test
  void stepBudgetStopsProportionalBuiltins() throws Exception {
    StarlarkThread t = new StarlarkThread();
    t.setMaxSteps(10_000);
    Value big = call(t, "range", i(10_000_000));
    assertThatThrownBy(() -> call(t, "list", big))
        .isInstanceOf(StepLimitException.class)
        .hasMessage("Starlark computation cancelled: execution step limit exceeded");
  }

  @Test
  void smallWorkFitsInTheBudget() throws Exception {
    StarlarkThread t = new StarlarkThread();
    t.setMaxSteps(1000);
    assertThat(call(t, "len", call(t, "list", call(t, "range", i(1000))))).isEqualTo(i(1000));
    assertThat(t.steps()).isBetween(1L, 1000L);
  }

  @Test
  void repetitionAndJoinAreCharged() throws Exception {
    StarlarkThread t = new StarlarkThread();
    t.setMaxSteps(1000);
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, s("x"), i(100_000_000)))
        .isInstanceOf(StepLimitException.class);
    StarlarkThread t2 = new StarlarkThread();
    t2.setMaxSteps(1000);
    StarlarkList parts = list();
    for (int k = 0; k < 100; k++) {
      parts.append(s("y".repeat(10_000)));
    }
    assertThatThrownBy(() -> method(t2, s(","), "join", parts))
        .isInstanceOf(StepLimitException.class);
  }

  @Test
  void allocationBudgetHasItsOwnError() {
    StarlarkThread t = new StarlarkThread();
    t.setMaxAllocBytes(1 << 20);
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, s("x"), i(100_000_000)))
        .isInstanceOf(AllocationLimitException.class)
        .hasMessageContaining("allocation limit exceeded");
  }

  @Test
  void hugeRepetitionFailsCleanlyWithoutBudgets() {
    StarlarkThread t = new StarlarkThread();
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, s("x"), i(1L << 40)))
        .hasMessage("repeat count 1099511627776 too large");
    assertThatThrownBy(() -> Operators.binary(t, Token.STAR, s("xy"), i(1L << 30)))
        .hasMessage("excessive repeat (2 * 1073741824 elements)");
  }

  @Test
  void cancellationIsObservedInsideLongBuiltins() throws Exception {
    StarlarkThread t = new StarlarkThread();
    Value big = call(t, "range", i(1), i(2_000_000_000));
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              t.cancel("deadline");
            });
    canceller.start();
    long start = System.nanoTime();
    assertThatThrownBy(() -> call(t, "all", big))
        .isInstanceOf(CancelledException.class)
        .hasMessage("Starlark computation cancelled: deadline");
    canceller.join();
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
  }

  @Test
  void cancellationIsObservedInsideASort() throws Exception {
    StarlarkThread t = new StarlarkThread();
    StarlarkList big = new StarlarkList();
    java.util.Random r = new java.util.Random(1);
    for (int k = 0; k < 3_000_000; k++) {
      big.elems.add(StarlarkInt.of(r.nextLong()));
    }
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(30);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              t.cancel("stop");
            });
    canceller.start();
    assertThatThrownBy(
            () -> {
              for (int round = 0; round < 100; round++) {
                call(t, "sorted", big);
              }
            })
        .isInstanceOf(CancelledException.class)
        .hasMessage("Starlark computation cancelled: stop");
    canceller.join();
  }

  @Test
  void printGoesToTheHandler() throws Exception {
    StarlarkThread t = new StarlarkThread();
    List<String> out = new ArrayList<>();
    t.setPrintHandler((th, msg) -> out.add(msg));
    Values.callKw(t, "print", new Value[] {s("a"), i(1), list(s("b"))}, "sep", s("-"));
    assertThat(out).containsExactly("a-1-[\"b\"]");
  }

  @Test
  void framesArePushedAndPopped() {
    StarlarkThread t = new StarlarkThread();
    Builtin f = new Builtin("f", (th, fn, a, kw) -> NoneValue.NONE);
    t.pushFrame(() -> f);
    assertThat(t.depth()).isEqualTo(1);
    assertThat(t.frames().get(0).callable()).isSameAs(f);
    t.popFrame();
    assertThat(t.depth()).isZero();
  }
}
