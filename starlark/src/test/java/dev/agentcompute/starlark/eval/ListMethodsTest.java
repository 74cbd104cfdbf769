package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.method;
import static dev.agentcompute.starlark.eval.Values.repr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ListMethodsTest {
  private final StarlarkThread t = new StarlarkThread();

  @Test
  void mutation() throws Exception {
    StarlarkList l = list(i(1), i(2));
    method(t, l, "append", i(3));
    method(t, l, "insert", i(-100), i(0));
    method(t, l, "insert", i(100), i(9));
    method(t, l, "extend", Values.tuple(i(7)));
    assertThat(repr(l)).isEqualTo("[0, 1, 2, 3, 9, 7]");
    assertThat(method(t, l, "pop")).isEqualTo(i(7));
    assertThat(method(t, l, "pop", i(0))).isEqualTo(i(0));
    method(t, l, "remove", i(9));
    assertThat(method(t, l, "index", i(3))).isEqualTo(i(2));
    assertThatThrownBy(() -> method(t, l, "index", i(42))).hasMessage("index: value not in list");
    assertThatThrownBy(() -> method(t, l, "remove", i(42))).hasMessage("remove: element not found");
    method(t, l, "clear");
    assertThatThrownBy(() -> method(t, l, "pop"))
        .hasMessage("pop: index -1 out of range: empty list");
    method(t, l, "extend", l);
    assertThat(l.len()).isZero();
  }

  @Test
  void frozenAndIteratingListsReject() throws Exception {
    StarlarkList l = list(i(1));
    try (Iterator it = l.iterate()) {
      assertThatThrownBy(() -> method(t, l, "append", i(2)))
          .hasMessage("append: cannot append to list during iteration");
    }
    l.freeze();
    assertThatThrownBy(() -> method(t, l, "append", i(2)))
        .hasMessage("append: cannot append to frozen list");
    assertThatThrownBy(() -> Operators.setIndex(l, i(0), i(2)))
        .hasMessage("cannot assign to element of frozen list");
  }
}
