package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.call;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.method;
import static dev.agentcompute.starlark.eval.Values.repr;
import static dev.agentcompute.starlark.eval.Values.s;
import static dev.agentcompute.starlark.eval.Values.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StringMethodsTest {
  private final StarlarkThread t = new StarlarkThread();

  private String m(String recv, String name, Value... args) throws EvalException {
    return repr(method(t, s(recv), name, args));
  }

  @Test
  void searching() throws Exception {
    assertThat(m("banana", "find", s("an"))).isEqualTo("1");
    assertThat(m("banana", "rfind", s("an"))).isEqualTo("3");
    assertThat(m("banana", "find", s("an"), i(2), i(4))).isEqualTo("-1");
    assertThat(m("banana", "count", s("a"))).isEqualTo("3");
    assertThat(m("héllo", "count", s(""))).isEqualTo("6");
    assertThat(m("banana", "startswith", tuple(s("x"), s("ba")))).isEqualTo("True");
    assertThat(m("banana", "endswith", s("na"), i(0), i(4))).isEqualTo("True");
    assertThatThrownBy(() -> m("banana", "index", s("x"))).hasMessage("index: substring not found");
    assertThatThrownBy(() -> m("banana", "startswith", i(1)))
        .hasMessage("startswith: got int, want string or tuple of string");
  }

  @Test
  void splitting() throws Exception {
    assertThat(m("a.b.c", "split", s("."))).isEqualTo("[\"a\", \"b\", \"c\"]");
    assertThat(m("a.b.c.d", "rsplit", s("."), i(2))).isEqualTo("[\"a.b\", \"c\", \"d\"]");
    assertThat(m("  aa  bb  cc  ", "split", NoneValue.NONE, i(1)))
        .isEqualTo("[\"aa\", \"bb  cc  \"]");
    assertThat(m("  aa  bb  cc  ", "rsplit", NoneValue.NONE, i(1)))
        .isEqualTo("[\"  aa  bb\", \"cc\"]");
    assertThat(m(" a bc\n  def \t  ghi", "split")).isEqualTo("[\"a\", \"bc\", \"def\", \"ghi\"]");
    assertThat(m("a\nb\n", "splitlines")).isEqualTo("[\"a\", \"b\"]");
    assertThat(m("a\nb", "splitlines", Bool.TRUE)).isEqualTo("[\"a\\n\", \"b\"]");
    assertThat(m("a-b-c", "partition", s("-"))).isEqualTo("(\"a\", \"-\", \"b-c\")");
    assertThat(m("a-b-c", "rpartition", s("-"))).isEqualTo("(\"a-b\", \"-\", \"c\")");
    assertThatThrownBy(() -> m("abc", "split", s(""))).hasMessage("split: empty separator");
    assertThatThrownBy(() -> m("abc", "partition", s(""))).hasMessage("partition: empty separator");
    assertThatThrownBy(() -> m("a", "splitlines", i(1)))
        .hasMessage("splitlines: for parameter 1: got int, want bool");
  }

  @Test
  void casingAndClassification() throws Exception {
    assertThat(m("hello world", "title")).isEqualTo("\"Hello World\"");
    assertThat(m("hELLO", "capitalize")).isEqualTo("\"Hello\"");
    assertThat(m("Straße", "upper"))
        .isEqualTo("\"STRAßE\""); // rune-wise, like Go's unicode.ToUpper
    assertThat(m("ÀB", "lower")).isEqualTo("\"àb\"");
    assertThat(m("abc1", "isalnum")).isEqualTo("True");
    assertThat(m("", "isalpha")).isEqualTo("False");
    assertThat(m("Hello World", "istitle")).isEqualTo("True");
    assertThat(m("hello World", "istitle")).isEqualTo("False");
    assertThat(m("ǅenan ǈubović", "istitle")).isEqualTo("True");
    assertThat(m("Ǆenan Ǉubović", "istitle")).isEqualTo("False"); // Ǆ is upper, not title case
    assertThat(m("abc", "islower")).isEqualTo("True");
    assertThat(m("123", "islower")).isEqualTo("False");
    assertThat(m(" \t", "isspace")).isEqualTo("True");
  }

  @Test
  void strippingReplacingJoining() throws Exception {
    assertThat(m("  x  ", "strip")).isEqualTo("\"x\"");
    assertThat(m("xxhixx", "lstrip", s("x"))).isEqualTo("\"hixx\"");
    assertThat(m("xxhixx", "rstrip", s("x"))).isEqualTo("\"xxhi\"");
    assertThat(m("aaa", "replace", s("a"), s("b"), i(2))).isEqualTo("\"bba\"");
    assertThat(m("ab", "replace", s(""), s("-"))).isEqualTo("\"-a-b-\"");
    assertThat(m("prefix-x", "removeprefix", s("prefix-"))).isEqualTo("\"x\"");
    assertThat(m("x.txt", "removesuffix", s(".txt"))).isEqualTo("\"x\"");
    assertThat(m(",", "join", list(s("a"), s("b")))).isEqualTo("\"a,b\"");
    assertThatThrownBy(() -> m(",", "join", list(s("a"), i(1))))
        .hasMessage("join: in list, want string, got int");
    assertThatThrownBy(() -> m("a", "replace", s("a"), s("b"), s("c")))
        .hasMessage("replace: for parameter 3: got string, want int");
  }

  @Test
  void elementIterables() throws Exception {
    Value cps = method(t, s("aЙ"), "codepoints");
    assertThat(repr(cps)).isEqualTo("\"aЙ\".codepoints()");
    assertThat(cps.type()).isEqualTo("string.codepoints");
    assertThat(repr(call(t, "list", cps))).isEqualTo("[\"a\", \"Й\"]");
    assertThat(repr(call(t, "list", method(t, s("aЙ"), "elem_ords")))).isEqualTo("[97, 208, 153]");
    assertThat(repr(call(t, "list", method(t, s("aЙ"), "codepoint_ords")))).isEqualTo("[97, 1049]");
    assertThat(call(t, "len", method(t, s("aЙ"), "elems"))).isEqualTo(i(3));
    assertThatThrownBy(() -> call(t, "len", cps))
        .hasMessage("len: value of type string.codepoints has no len");
    assertThat(
            repr(call(t, "list", method(t, StarlarkBytes.of(new byte[] {1, (byte) 200}), "elems"))))
        .isEqualTo("[1, 200]");
  }

  @Test
  void methodsRejectKeywords() {
    assertThatThrownBy(() -> Values.methodKw(t, s("a"), "upper", new Value[0], "x", i(1)))
        .hasMessage("upper: unexpected keyword arguments");
    assertThatThrownBy(() -> m("a", "upper", i(1))).hasMessage("upper: got 1 arguments, want 0");
  }
}
