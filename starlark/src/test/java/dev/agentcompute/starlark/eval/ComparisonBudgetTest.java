package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Comparisons are work in proportion to what they compare: two lists of a million elements were one
 * step to compare, so a loop over {@code a == b} ran for minutes inside a 1,000,000-step budget; so
 * did {@code in}, dict equality and lookups of long, equal but distinct strings.
 */
class ComparisonBudgetTest {
  private final StarlarkThread thread = new StarlarkThread();

  private static StarlarkList zeros(int n) {
    List<Value> l = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      l.add(i(0));
    }
    return StarlarkList.copyOf(l);
  }

  @Test
  void comparingTwoListsIsChargedPerElement() throws Exception {
    assertThat(Operators.compare(thread, Token.EQL, zeros(16_000), zeros(16_000))).isTrue();
    assertThat(thread.steps()).isEqualTo(16_000 / Comparison.ELEMENTS_PER_STEP);
  }

  @Test
  void nestedListsAreChargedPerNestedElement() throws Exception {
    StarlarkList inner = zeros(1_600);
    StarlarkList a = StarlarkList.copyOf(List.of(inner, inner, inner, inner, inner));
    StarlarkList b =
        StarlarkList.copyOf(
            List.of(zeros(1_600), zeros(1_600), zeros(1_600), zeros(1_600), zeros(1_600)));
    assertThat(Operators.compare(thread, Token.EQL, a, b)).isTrue();
    assertThat(thread.steps()).isEqualTo((5 + 5 * 1_600) / Comparison.ELEMENTS_PER_STEP);
  }

  @Test
  void comparingTwoDictsIsChargedPerEntry() throws Exception {
    Dict a = new Dict();
    Dict b = new Dict();
    for (int k = 0; k < 8_000; k++) {
      a.put(i(k), i(k));
      b.put(i(k), i(k));
    }
    assertThat(Operators.compare(thread, Token.EQL, a, b)).isTrue();
    assertThat(thread.steps()).isEqualTo(2 * 8_000 / Comparison.ELEMENTS_PER_STEP);
  }

  @Test
  void scanningAListWithInIsChargedPerElement() throws Exception {
    assertThat(Operators.in(thread, i(1), zeros(16_000))).isFalse();
    assertThat(thread.steps()).isEqualTo(16_000 / Comparison.ELEMENTS_PER_STEP);
  }

  @Test
  void comparingLongStringsIsChargedByTheirLength() throws Exception {
    StarlarkString a = s("a".repeat(64_000) + "b");
    StarlarkString b = s("a".repeat(64_000) + "c");
    assertThat(Operators.compare(thread, Token.LT, a, b)).isTrue();
    assertThat(thread.steps()).isEqualTo(1 + 64_001 / 64);
  }

  @Test
  void equalLongStringsShareTheirBytesOnceCompared() throws Exception {
    StarlarkString a = s("a".repeat(100_000));
    StarlarkString b = s("a".repeat(100_000));
    assertThat(a.bytes()).isNotSameAs(b.bytes());
    assertThat(Operators.equal(a, b)).isTrue();
    assertThat(a.bytes()).as("the next comparison is by reference").isSameAs(b.bytes());
  }

  @Test
  void nestingBeyondTenLevelsStillFails() {
    Value a = i(0);
    Value b = i(0);
    for (int k = 0; k < 11; k++) {
      a = StarlarkList.copyOf(List.of(a));
      b = StarlarkList.copyOf(List.of(b));
    }
    Value x = a;
    Value y = b;
    assertThatThrownBy(() -> Operators.compare(thread, Token.EQL, x, y))
        .hasMessage("comparison exceeded maximum recursion depth");
  }
}
