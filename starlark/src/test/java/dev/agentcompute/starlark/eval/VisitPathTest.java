package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The path of a recursive walk finds cycles at any depth, scanned or indexed. */
class VisitPathTest {
  private static List<Value> lists(int n) {
    List<Value> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      out.add(StarlarkList.of());
    }
    return out;
  }

  @Test
  void aContainerAlreadyOnADeepPathIsACycle() {
    VisitPath path = new VisitPath();
    List<Value> vs = lists(40);
    for (Value v : vs) {
      assertThat(path.enter(v)).isTrue();
    }
    assertThat(path.enter(vs.get(3))).isFalse();
    assertThat(path.enter(vs.get(39))).isFalse();
  }

  @Test
  void aContainerLeftIsNoLongerOnThePath() {
    VisitPath path = new VisitPath();
    List<Value> vs = lists(40);
    vs.forEach(path::enter);
    for (int k = 0; k < 30; k++) {
      path.leave();
    }
    assertThat(path.enter(vs.get(20))).isTrue();
    assertThat(path.enter(vs.get(5))).isFalse();
  }

  @Test
  void aCycleDeepInsideAValuePrintsAsGoPrintsIt() throws Exception {
    StarlarkList top = StarlarkList.of();
    StarlarkList inner = top;
    for (int k = 0; k < 30; k++) {
      StarlarkList next = StarlarkList.of();
      inner.append(next);
      inner = next;
    }
    inner.append(top);
    assertThat(Operators.repr(top)).endsWith("[[...]]" + "]".repeat(30));
  }
}
