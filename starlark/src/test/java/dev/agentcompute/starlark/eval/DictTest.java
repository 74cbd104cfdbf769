package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.method;
import static dev.agentcompute.starlark.eval.Values.repr;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DictTest {
  private final StarlarkThread t = new StarlarkThread();

  @Test
  void keepsInsertionOrderThroughChurn() throws Exception {
    Dict d = new Dict();
    LinkedHashMap<Long, Long> model = new LinkedHashMap<>();
    Random r = new Random(42);
    for (int k = 0; k < 20_000; k++) {
      long key = r.nextInt(500);
      if (r.nextInt(3) == 0) {
        d.remove(i(key));
        model.remove(key);
      } else {
        d.put(i(key), i(k));
        model.put(key, (long) k);
      }
    }
    assertThat(d.len()).isEqualTo(model.size());
    int n = 0;
    for (Map.Entry<Value, Value> e : d.entries()) {
      Map.Entry<Long, Long> want = model.entrySet().stream().skip(n++).findFirst().orElseThrow();
      assertThat(e.getKey()).isEqualTo(i(want.getKey()));
      assertThat(e.getValue()).isEqualTo(i(want.getValue()));
    }
  }

  @Test
  void intAndFloatKeysCollide() throws Exception {
    Dict d = new Dict();
    d.put(i(1), s("int"));
    d.put(Values.f(1.0), s("float"));
    assertThat(d.len()).isEqualTo(1);
    assertThat(repr(d)).isEqualTo("{1: \"float\"}");
  }

  @Test
  void methods() throws Exception {
    Dict d = new Dict();
    d.put(s("a"), i(1));
    assertThat(method(t, d, "get", s("b"), i(9))).isEqualTo(i(9));
    assertThat(method(t, d, "setdefault", s("b"), i(2))).isEqualTo(i(2));
    assertThat(repr(method(t, d, "items"))).isEqualTo("[(\"a\", 1), (\"b\", 2)]");
    assertThat(repr(method(t, d, "popitem"))).isEqualTo("(\"a\", 1)");
    assertThat(method(t, d, "pop", s("b"))).isEqualTo(i(2));
    assertThatThrownBy(() -> method(t, d, "pop", s("b"))).hasMessage("pop: missing key");
    assertThatThrownBy(() -> method(t, d, "popitem")).hasMessage("popitem: empty dict");
    Values.methodKw(
        t, d, "update", new Value[] {Values.list(Values.tuple(s("x"), i(1)))}, "y", i(2));
    assertThat(repr(d)).isEqualTo("{\"x\": 1, \"y\": 2}");
    assertThatThrownBy(() -> method(t, d, "get", Values.list()))
        .hasMessage("get: unhashable type: list");
  }

  @Test
  void cyclesPrintAsEllipsis() throws Exception {
    Dict d = new Dict();
    d.put(s("self"), d);
    assertThat(repr(d)).isEqualTo("{\"self\": {...}}");
    StarlarkList l = Values.list();
    l.append(l);
    assertThat(repr(l)).isEqualTo("[[...]]");
  }

  @Test
  void frozenDictRejectsMutationThroughMethods() throws Exception {
    Dict d = new Dict();
    d.put(s("a"), i(1));
    d.freeze();
    assertThatThrownBy(() -> method(t, d, "clear")).hasMessage("cannot clear frozen hash table");
    assertThatThrownBy(() -> method(t, d, "pop", s("a")))
        .hasMessage("pop: cannot delete from frozen hash table");
    assertThatThrownBy(() -> Operators.setIndex(d, s("b"), i(2)))
        .hasMessage("cannot insert into frozen hash table");
  }
}
