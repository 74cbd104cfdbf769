package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.f;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.repr;
import static dev.agentcompute.starlark.eval.Values.s;
import static dev.agentcompute.starlark.eval.Values.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class OperatorsTest {
  private final StarlarkThread thread = new StarlarkThread();

  private Value bin(Token op, Value x, Value y) throws EvalException {
    return Operators.binary(thread, op, x, y);
  }

  @Test
  void unknownBinaryOpNamesBothTypes() {
    assertThatThrownBy(() -> Operators.binary(Token.PLUS, i(1), s("a")))
        .isInstanceOf(EvalException.class)
        .hasMessage("unknown binary op: int + string");
    assertThatThrownBy(() -> bin(Token.STAR, s("a"), s("b")))
        .hasMessage("unknown binary op: string * string");
    assertThatThrownBy(() -> bin(Token.PLUS, new Dict(), new Dict()))
        .hasMessage("unknown binary op: dict + dict");
    assertThatThrownBy(() -> Operators.unary(Token.MINUS, s("x")))
        .hasMessage("unknown unary op: - string");
  }

  @Test
  void intArithmeticOverflowsIntoBigIntegers() throws Exception {
    Value max = i(Long.MAX_VALUE);
    assertThat(bin(Token.PLUS, max, i(1)).toString()).isEqualTo("9223372036854775808");
    assertThat(bin(Token.STAR, max, max).toString())
        .isEqualTo(BigInteger.valueOf(Long.MAX_VALUE).pow(2).toString());
    assertThat(bin(Token.MINUS, i(Long.MIN_VALUE), i(1)).toString())
        .isEqualTo("-9223372036854775809");
    assertThat(Operators.unary(Token.MINUS, i(Long.MIN_VALUE)).toString())
        .isEqualTo("9223372036854775808");
    // back to the long path when the result fits
    StarlarkInt big = (StarlarkInt) bin(Token.PLUS, max, i(1));
    assertThat(((StarlarkInt) bin(Token.MINUS, big, i(1))).isLong()).isTrue();
  }

  @Test
  void flooredDivisionAndModuloFollowTheDivisorSign() throws Exception {
    assertThat(bin(Token.SLASHSLASH, i(-7), i(2))).isEqualTo(i(-4));
    assertThat(bin(Token.PERCENT, i(-7), i(2))).isEqualTo(i(1));
    assertThat(bin(Token.PERCENT, i(7), i(-2))).isEqualTo(i(-1));
    assertThat(repr(bin(Token.PERCENT, f(-7.5), f(2)))).isEqualTo("0.5");
    assertThat(repr(bin(Token.SLASH, i(1), i(4)))).isEqualTo("0.25");
    assertThat(repr(bin(Token.SLASHSLASH, f(7), i(2)))).isEqualTo("3.0");
    BigInteger b = BigInteger.TWO.pow(100);
    assertThat(bin(Token.SLASHSLASH, StarlarkInt.of(b.negate()), i(3)).toString())
        .isEqualTo(b.negate().divide(BigInteger.valueOf(3)).subtract(BigInteger.ONE).toString());
  }

  @Test
  void divisionByZeroErrors() {
    assertThatThrownBy(() -> bin(Token.SLASHSLASH, i(1), i(0)))
        .hasMessage("floored division by zero");
    assertThatThrownBy(() -> bin(Token.PERCENT, i(1), i(0))).hasMessage("integer modulo by zero");
    assertThatThrownBy(() -> bin(Token.SLASH, i(1), i(0)))
        .hasMessage("floating-point division by zero");
    assertThatThrownBy(() -> bin(Token.PERCENT, f(1), f(0)))
        .hasMessage("floating-point modulo by zero");
    assertThatThrownBy(() -> bin(Token.SLASHSLASH, f(1), f(0)))
        .hasMessage("floored division by zero");
  }

  @Test
  void shifts() throws Exception {
    assertThat(bin(Token.LTLT, i(1), i(100)).toString())
        .isEqualTo(BigInteger.TWO.pow(100).toString());
    assertThat(bin(Token.GTGT, i(-9), i(1))).isEqualTo(i(-5));
    assertThatThrownBy(() -> bin(Token.LTLT, i(1), i(-1))).hasMessage("negative shift count: -1");
    assertThatThrownBy(() -> bin(Token.LTLT, i(1), i(10000)))
        .hasMessage("shift count too large: 10000");
    assertThat(bin(Token.GTGT, i(1), i(10000))).isEqualTo(i(0));
    assertThatThrownBy(() -> bin(Token.LTLT, i(1), s("a"))).hasMessage("got string, want int");
    assertThatThrownBy(() -> bin(Token.LTLT, s("a"), i(1)))
        .hasMessage("unknown binary op: string << int");
  }

  @Test
  void repetitionAndItsLimits() throws Exception {
    assertThat(repr(bin(Token.STAR, s("ab"), i(3)))).isEqualTo("\"ababab\"");
    assertThat(repr(bin(Token.STAR, i(2), list(i(1))))).isEqualTo("[1, 1]");
    assertThat(repr(bin(Token.STAR, tuple(i(1)), i(-1)))).isEqualTo("()");
    assertThatThrownBy(() -> bin(Token.STAR, s("x"), i(1L << 40)))
        .hasMessage("repeat count 1099511627776 too large");
    assertThatThrownBy(() -> bin(Token.STAR, list(i(1), i(2), i(3)), i(1_000_000_000)))
        .hasMessage("excessive repeat (3 * 1000000000 elements)");
  }

  @Test
  void comparisons() throws Exception {
    assertThat(Operators.compare(Token.LT, i(1), f(1.5))).isTrue();
    assertThat(Operators.equal(i(1), f(1.0))).isTrue();
    assertThat(Operators.compare(Token.LT, s("a"), s("b"))).isTrue();
    assertThat(Operators.compare(Token.LT, list(i(1), i(2)), list(i(1), i(3)))).isTrue();
    assertThat(Operators.compare(Token.GT, tuple(i(1), i(2)), tuple(i(1)))).isTrue();
    assertThat(Operators.equal(s("a"), i(1))).isFalse();
    assertThatThrownBy(() -> Operators.compare(Token.LT, s("a"), i(1)))
        .hasMessage("string < int not implemented");
    assertThatThrownBy(() -> Operators.compare(Token.LT, NoneValue.NONE, NoneValue.NONE))
        .hasMessage("NoneType < NoneType not implemented");
    assertThatThrownBy(() -> Operators.compare(Token.LT, list(), new Dict()))
        .hasMessage("list < dict not implemented");
    // NaN is ordered above +Inf and equal to itself, as in starlark-go
    double nan = Double.NaN;
    assertThat(Operators.equal(f(nan), f(nan))).isTrue();
    assertThat(Operators.compare(Token.GT, f(nan), f(Double.POSITIVE_INFINITY))).isTrue();
    // exact big int / float comparison
    assertThat(Operators.equal(StarlarkInt.of(BigInteger.TWO.pow(70)), f(Math.pow(2, 70))))
        .isTrue();
    assertThat(Operators.equal(i((1L << 53) + 1), f((double) (1L << 53)))).isFalse();
  }

  @Test
  void cyclicComparisonFails() throws Exception {
    StarlarkList a = list();
    a.append(a);
    StarlarkList b = list();
    b.append(b);
    assertThatThrownBy(() -> Operators.equal(a, b)).hasMessageContaining("maximum recursion");
  }

  @Test
  void membership() throws Exception {
    assertThat(Operators.in(s("b"), s("abc"))).isTrue();
    assertThat(Operators.in(i(2), list(i(1), i(2)))).isTrue();
    assertThat(Operators.in(list(), new Dict())).isFalse();
    assertThat(Operators.in(i(3), RangeValue.of(0, 10, 3))).isTrue();
    assertThat(Operators.in(i(4), RangeValue.of(0, 10, 3))).isFalse();
    assertThat(Operators.in(i(-3), RangeValue.of(0, -10, -3))).isTrue();
    assertThatThrownBy(() -> Operators.in(i(3), s("foo")))
        .hasMessage("'in <string>' requires string as left operand, not int");
    assertThatThrownBy(() -> Operators.in(Bool.TRUE, RangeValue.of(0, 3, 1)))
        .hasMessageMatching("'in <range>' requires integer.*not bool");
    assertThat(bin(Token.NOT_IN, i(5), list(i(1)))).isEqualTo(Bool.TRUE);
  }

  @Test
  void indexingErrors() throws Exception {
    assertThat(Operators.index(s("héllo"), i(1)))
        .isEqualTo(StarlarkString.ofBytes(new byte[] {(byte) 0xc3}));
    assertThatThrownBy(() -> Operators.index(list(i(1), i(2), i(3)), i(5)))
        .hasMessage("list index 5 out of range [-3:2]");
    assertThatThrownBy(() -> Operators.index(tuple(), i(1)))
        .hasMessage("index 1 out of range: empty tuple");
    assertThatThrownBy(() -> Operators.index(s("abc"), s("x")))
        .hasMessage("string index: got string, want int");
    Dict d = new Dict();
    assertThatThrownBy(() -> Operators.index(d, s("k"))).hasMessage("key \"k\" not in dict");
    assertThatThrownBy(() -> Operators.setIndex(d, list(), i(1)))
        .hasMessage("unhashable type: list");
    assertThatThrownBy(() -> Operators.setIndex(StarlarkBytes.of(new byte[] {1}), i(0), i(1)))
        .hasMessage("bytes value does not support item assignment");
  }

  @Test
  void slicing() throws Exception {
    Value abc = s("abcdef");
    assertThat(repr(Operators.slice(abc, i(1), i(4), null))).isEqualTo("\"bcd\"");
    assertThat(repr(Operators.slice(abc, null, null, i(-1)))).isEqualTo("\"fedcba\"");
    assertThat(repr(Operators.slice(abc, i(-2), null, null))).isEqualTo("\"ef\"");
    assertThat(repr(Operators.slice(abc, i(10), i(-10), i(-2)))).isEqualTo("\"fdb\"");
    assertThat(repr(Operators.slice(list(i(1), i(2), i(3)), null, null, i(2)))).isEqualTo("[1, 3]");
    assertThat(repr(Operators.slice(RangeValue.of(0, 10, 1), i(1), null, i(3))))
        .isEqualTo("range(1, 10, 3)");
    assertThatThrownBy(() -> Operators.slice(abc, null, null, i(0)))
        .hasMessage("zero is not a valid slice step");
    assertThatThrownBy(() -> Operators.slice(abc, f(1.0), null, null))
        .hasMessage("invalid start index: got float, want int");
    assertThatThrownBy(() -> Operators.slice(i(1), null, null, null))
        .hasMessage("invalid slice operand int");
  }

  @Test
  void attributes() throws Exception {
    assertThatThrownBy(() -> Operators.getAttr(s("x"), "nope"))
        .hasMessage("string has no .nope field or method");
    assertThatThrownBy(() -> Operators.getAttr(new Dict(), "kes"))
        .hasMessage("dict has no .kes field or method (did you mean .keys?)");
    assertThatThrownBy(() -> Operators.getAttr(i(1), "x"))
        .hasMessage("int has no .x field or method");
    assertThatThrownBy(() -> Operators.setField(list(), "x", i(1)))
        .hasMessage("can't assign to .x field of list");
    assertThat(repr(Operators.getAttr(s("abc"), "startswith")))
        .isEqualTo("<built-in method startswith of string value>");
  }

  @Test
  void iterationRules() throws Exception {
    assertThatThrownBy(() -> Operators.iterate(i(1))).hasMessage("int value is not iterable");
    assertThatThrownBy(() -> Operators.iterate(s("abc")))
        .hasMessage("string value is not iterable");
    StarlarkList l = list(i(1));
    try (Iterator it = Operators.iterate(l)) {
      assertThat(it.next()).isEqualTo(i(1));
      assertThatThrownBy(() -> l.append(i(2))).hasMessage("cannot append to list during iteration");
    }
    l.append(i(2));
    Dict d = new Dict();
    d.put(s("a"), i(1));
    try (Iterator it = Operators.iterate(d)) {
      assertThatThrownBy(() -> d.put(s("b"), i(2)))
          .hasMessage("cannot insert into hash table during iteration");
      assertThatThrownBy(() -> d.remove(s("a")))
          .hasMessage("cannot delete from hash table during iteration");
    }
    d.freeze();
    assertThatThrownBy(() -> d.put(s("b"), i(2)))
        .hasMessage("cannot insert into frozen hash table");
    assertThatThrownBy(d::clear).hasMessage("cannot clear frozen hash table");
  }

  @Test
  void hashability() throws Exception {
    assertThatThrownBy(() -> list().hash()).hasMessage("unhashable type: list");
    assertThatThrownBy(() -> new Dict().hash()).hasMessage("unhashable type: dict");
    assertThatThrownBy(() -> RangeValue.of(0, 1, 1).hash()).hasMessage("unhashable: range");
    assertThatThrownBy(() -> tuple(i(1), list()).hash()).hasMessage("unhashable type: list");
    assertThat(tuple(i(1), s("a")).hash()).isEqualTo(tuple(i(1), s("a")).hash());
    assertThat(i(3).hash()).isEqualTo(f(3.0).hash());
  }

  @Test
  void dictUnion() throws Exception {
    Dict a = new Dict();
    a.put(s("x"), i(1));
    a.put(s("y"), i(2));
    Dict b = new Dict();
    b.put(s("y"), i(3));
    b.put(s("z"), i(4));
    assertThat(repr(bin(Token.PIPE, a, b))).isEqualTo("{\"x\": 1, \"y\": 3, \"z\": 4}");
  }
}
