package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.call;
import static dev.agentcompute.starlark.eval.Values.callKw;
import static dev.agentcompute.starlark.eval.Values.f;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.repr;
import static dev.agentcompute.starlark.eval.Values.s;
import static dev.agentcompute.starlark.eval.Values.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BuiltinsTest {
  private final StarlarkThread t = new StarlarkThread();

  @Test
  void universeHasExactlyTheGoNames() {
    assertThat(Universe.names())
        .containsExactlyInAnyOrder(
            "None",
            "True",
            "False",
            "abs",
            "any",
            "all",
            "bool",
            "bytes",
            "chr",
            "dict",
            "dir",
            "enumerate",
            "fail",
            "float",
            "getattr",
            "hasattr",
            "hash",
            "int",
            "len",
            "list",
            "max",
            "min",
            "ord",
            "print",
            "range",
            "repr",
            "reversed",
            "set",
            "sorted",
            "str",
            "tuple",
            "type",
            "zip");
    assertThat(Universe.get("set", false)).isNull();
    assertThat(repr(Universe.get("len"))).isEqualTo("<built-in function len>");
  }

  @Test
  void aKeywordGivenTwiceToABuiltinIsNamedQuotedAsGoDoes() {
    assertThatThrownBy(() -> callKw(t, "int", new Value[] {s("1")}, "x", i(2)))
        .hasMessage("int: got multiple values for keyword argument \"x\"");
  }

  @Test
  void argumentErrorsReadLikeGo() {
    assertThatThrownBy(() -> call(t, "bool", i(1), i(2)))
        .hasMessage("bool: got 2 arguments, want at most 1");
    assertThatThrownBy(() -> call(t, "str")).hasMessage("str: got 0 arguments, want exactly 1");
    assertThatThrownBy(() -> call(t, "len", i(1))).hasMessage("len: value of type int has no len");
    assertThatThrownBy(() -> call(t, "list", i(1)))
        .hasMessage("list: for parameter 1: got int, want iterable");
    assertThatThrownBy(() -> call(t, "enumerate", i(1)))
        .hasMessage("enumerate: for parameter 1: got int, want iterable");
    assertThatThrownBy(() -> call(t, "int")).hasMessage("int: missing argument for x");
    assertThatThrownBy(() -> callKw(t, "int", new Value[] {s("1")}, "bas", i(2)))
        .hasMessage("int: unexpected keyword argument \"bas\" (did you mean base?)");
    assertThatThrownBy(() -> call(t, "sorted", i(1)))
        .hasMessage("sorted: for parameter iterable: got int, want iterable");
    assertThatThrownBy(() -> call(t, "abs", s("0"))).hasMessage("got string, want int or float");
    assertThatThrownBy(() -> callKw(t, "len", new Value[] {s("")}, "x", i(1)))
        .hasMessage("len: unexpected keyword arguments");
  }

  @Test
  void intConversions() throws Exception {
    assertThat(call(t, "int", s("0x10"), i(0))).isEqualTo(i(16));
    assertThat(call(t, "int", s("-0b101"), i(0))).isEqualTo(i(-5));
    assertThat(call(t, "int", s("ff"), i(16))).isEqualTo(i(255));
    assertThat(call(t, "int", f(-2.7))).isEqualTo(i(-2));
    assertThat(call(t, "int", Bool.TRUE)).isEqualTo(i(1));
    assertThat(call(t, "int", s("123456789012345678901234567890")).toString())
        .isEqualTo("123456789012345678901234567890");
    assertThatThrownBy(() -> call(t, "int", s("0x10")))
        .hasMessage("int: invalid literal with base 10: 0x10");
    assertThatThrownBy(() -> call(t, "int", s("0755"), i(0)))
        .hasMessage("int: invalid literal with base 0: 0755");
    assertThatThrownBy(() -> call(t, "int", s("١٢")))
        .hasMessageStartingWith("int: invalid literal");
    assertThatThrownBy(() -> call(t, "int", f(Double.NaN)))
        .hasMessage("int: cannot convert float NaN to integer");
    assertThatThrownBy(() -> call(t, "int", f(Double.POSITIVE_INFINITY)))
        .hasMessage("int: cannot convert float infinity to integer");
  }

  @Test
  void floatConversions() throws Exception {
    assertThat(repr(call(t, "float", s("1e3")))).isEqualTo("1000.0");
    assertThat(repr(call(t, "float", s("-Inf")))).isEqualTo("-inf");
    assertThat(repr(call(t, "float"))).isEqualTo("0.0");
    assertThatThrownBy(() -> call(t, "float", s("x"))).hasMessage("invalid float literal: x");
    assertThatThrownBy(() -> call(t, "float", StarlarkInt.of(java.math.BigInteger.TEN.pow(400))))
        .hasMessage("int too large to convert to float");
  }

  @Test
  void chrOrdAndBytes() throws Exception {
    assertThat(repr(call(t, "chr", i(65)))).isEqualTo("\"A\"");
    assertThat(call(t, "ord", s("Й"))).isEqualTo(i(1049));
    assertThatThrownBy(() -> call(t, "chr", i(-1)))
        .hasMessage("chr: Unicode code point -1 out of range (<0)");
    assertThatThrownBy(() -> call(t, "ord", s("ab")))
        .hasMessage("ord: string encodes 2 Unicode code points, want 1");
    assertThat(repr(call(t, "bytes", list(i(65), i(255))))).isEqualTo("b\"A\\xff\"");
    assertThatThrownBy(() -> call(t, "bytes", list(i(300))))
        .hasMessage("bytes: at index 0, 300 out of range (want value in unsigned 8-bit range)");
    assertThatThrownBy(() -> call(t, "bytes", i(1)))
        .hasMessage("bytes: got int, want string, bytes, or iterable of ints");
  }

  @Test
  void dictConstruction() throws Exception {
    Value d = callKw(t, "dict", new Value[] {list(tuple(s("a"), i(1)))}, "b", i(2));
    assertThat(repr(d)).isEqualTo("{\"a\": 1, \"b\": 2}");
    assertThatThrownBy(() -> call(t, "dict", i(1))).hasMessage("dict: got int, want iterable");
    assertThatThrownBy(() -> call(t, "dict", list(tuple(i(1), i(2), i(3)))))
        .hasMessage("dict: dictionary update sequence element #0 has length 3, want 2");
  }

  @Test
  void sortedIsStableAndReportsGoErrors() throws Exception {
    Value words = list(s("two"), s("three"), s("four"), s("six"));
    Value len = Universe.get("len");
    assertThat(repr(callKw(t, "sorted", new Value[] {words}, "key", len)))
        .isEqualTo("[\"two\", \"six\", \"four\", \"three\"]");
    assertThat(repr(callKw(t, "sorted", new Value[] {words}, "key", len, "reverse", Bool.TRUE)))
        .isEqualTo("[\"three\", \"four\", \"two\", \"six\"]");
    assertThatThrownBy(() -> call(t, "sorted", list(i(1), i(2), NoneValue.NONE, i(3))))
        .hasMessage("int < NoneType not implemented");
    assertThatThrownBy(() -> call(t, "sorted", list(i(1), s("one"))))
        .hasMessage("string < int not implemented");
    assertThatThrownBy(() -> callKw(t, "sorted", new Value[] {list()}, "key", NoneValue.NONE))
        .hasMessage("sorted: for parameter key: got NoneType, want callable");
    StarlarkList many = list();
    for (int k = 0; k < 1000; k++) {
      many.append(i((k * 7919) % 1000));
    }
    StarlarkList sorted = (StarlarkList) call(t, "sorted", many);
    for (int k = 0; k < 1000; k++) {
      assertThat(sorted.get(k)).isEqualTo(i(k));
    }
  }

  @Test
  void minMaxZipEnumerateReversed() throws Exception {
    assertThat(call(t, "max", i(1), i(5), i(3))).isEqualTo(i(5));
    assertThat(call(t, "min", list(i(4), i(2)))).isEqualTo(i(2));
    assertThatThrownBy(() -> call(t, "max", list()))
        .hasMessage("max: argument is an empty sequence");
    assertThatThrownBy(() -> call(t, "min"))
        .hasMessage("min requires at least one positional argument");
    assertThat(repr(call(t, "zip", list(i(1), i(2)), tuple(s("a"), s("b")))))
        .isEqualTo("[(1, \"a\"), (2, \"b\")]");
    assertThatThrownBy(() -> call(t, "zip", list(), i(1)))
        .hasMessage("zip: argument #2 is not iterable: int");
    assertThat(repr(call(t, "enumerate", list(s("a")), i(5)))).isEqualTo("[(5, \"a\")]");
    assertThat(repr(call(t, "reversed", list(i(1), i(2))))).isEqualTo("[2, 1]");
  }

  @Test
  void getattrHasattrDirType() throws Exception {
    assertThat(call(t, "hasattr", s(""), s("upper"))).isEqualTo(Bool.TRUE);
    assertThat(call(t, "getattr", i(1), s("x"), s("dflt"))).isEqualTo(s("dflt"));
    assertThatThrownBy(() -> call(t, "getattr", i(1), s("x")))
        .hasMessage("getattr: int has no .x field or method");
    assertThat(repr(call(t, "dir", list())))
        .isEqualTo(
            "[\"append\", \"clear\", \"extend\", \"index\", \"insert\", \"pop\", \"remove\"]");
    assertThat(((StarlarkList) call(t, "dir", s(""))).len()).isEqualTo(35);
    assertThat(call(t, "type", RangeValue.of(0, 1, 1))).isEqualTo(s("range"));
    assertThat(repr(call(t, "str", RangeValue.of(1, 10, 1)))).isEqualTo("\"range(1, 10)\"");
  }

  @Test
  void failJoinsArgumentsWithSep() {
    assertThatThrownBy(() -> callKw(t, "fail", new Value[] {s("x"), i(1)}, "sep", s("-")))
        .hasMessage("fail: x-1");
    assertThatThrownBy(() -> call(t, "fail")).hasMessage("fail: ");
  }

  @Test
  void hugeRangesAreLazyAsInGo() throws Exception {
    Value r = call(t, "range", i(1L << 40));
    assertThat(call(t, "len", r)).isEqualTo(i(1L << 40));
    assertThat(Operators.in(i((1L << 40) - 1), r)).isTrue();
    assertThat(repr(Operators.slice(r, null, i(3), null))).isEqualTo("range(3)");
    StarlarkThread limited = new StarlarkThread();
    limited.setMaxSteps(1000);
    Value fromOne = call(t, "range", i(1), i(1L << 40));
    assertThatThrownBy(() -> call(limited, "all", fromOne)).isInstanceOf(StepLimitException.class);
    assertThatThrownBy(() -> call(t, "list", r)).hasMessageStartingWith("too many elements");
  }

  @Test
  void rangeArguments() {
    assertThatThrownBy(() -> call(t, "range", i(1), i(2), i(0)))
        .hasMessage("range: step argument must not be zero");
    assertThatThrownBy(() -> call(t, "range", StarlarkInt.of(java.math.BigInteger.TWO.pow(64))))
        .hasMessageMatching(
            "range: for parameter 1: .* out of range .want value in signed ..-bit range.");
  }
}
