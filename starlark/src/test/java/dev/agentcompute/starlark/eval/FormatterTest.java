package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.f;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.list;
import static dev.agentcompute.starlark.eval.Values.s;
import static dev.agentcompute.starlark.eval.Values.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.syntax.Token;
import org.junit.jupiter.api.Test;

class FormatterTest {
  private final StarlarkThread t = new StarlarkThread();

  private String pct(String fmt, Value arg) throws EvalException {
    return ((StarlarkString) Operators.binary(t, Token.PERCENT, s(fmt), arg)).value();
  }

  private String format(String fmt, Value[] args, Object... kw) throws EvalException {
    return ((StarlarkString) Values.methodKw(t, s(fmt), "format", args, kw)).value();
  }

  @Test
  void percentInterpolation() throws Exception {
    assertThat(pct("%s %r", tuple(s("hi"), s("hi")))).isEqualTo("hi \"hi\"");
    assertThat(pct("%s", list(i(1)))).isEqualTo("[1]");
    assertThat(pct("%%d %d", i(1))).isEqualTo("%d 1");
    assertThat(pct("%X", i(255))).isEqualTo("FF");
    assertThat(pct("%x", i(-255))).isEqualTo("-ff");
    assertThat(pct("%d", f(3.9))).isEqualTo("3");
    Dict d = new Dict();
    d.put(s("foo"), i(123));
    assertThat(pct("A %(foo)d Z", d)).isEqualTo("A 123 Z");
    assertThat(pct("A", d)).isEqualTo("A");
    assertThat(pct("%c%c", tuple(i(0x1F63F), s("é")))).isEqualTo("😿é");
  }

  @Test
  void percentErrors() {
    assertThatThrownBy(() -> pct("%d %d", tuple(i(1))))
        .hasMessage("not enough arguments for format string");
    assertThatThrownBy(() -> pct("%d", tuple(i(1), i(2))))
        .hasMessage("too many arguments for format string");
    assertThatThrownBy(() -> pct("%z", i(1))).hasMessage("unknown conversion %z");
    assertThatThrownBy(() -> pct("%d", s("x")))
        .hasMessage("%d format requires integer: cannot convert string to int");
    assertThatThrownBy(() -> pct("%d", Bool.TRUE))
        .hasMessage("%d format requires integer: cannot convert bool to int");
    assertThatThrownBy(() -> pct("%d", f(Double.NaN)))
        .hasMessageEndingWith("cannot convert float NaN to integer");
  }

  @Test
  void strFormat() throws Exception {
    assertThat(format("{} {}", new Value[] {i(1), s("x")})).isEqualTo("1 x");
    assertThat(format("{1}{0}", new Value[] {i(1), i(2)})).isEqualTo("21");
    assertThat(format("{a!r} {{}}", new Value[0], "a", s("q"))).isEqualTo("\"q\" {}");
    assertThatThrownBy(() -> format("{}", new Value[0]))
        .hasMessage("format: tuple index out of range");
    assertThatThrownBy(() -> format("{0} {}", new Value[] {i(1), i(2)}))
        .hasMessage(
            "format: cannot switch from manual field specification to automatic field numbering");
    assertThatThrownBy(() -> format("{x}", new Value[0])).hasMessage("format: keyword x not found");
    assertThatThrownBy(() -> format("{:d}", new Value[] {i(1)}))
        .hasMessage("format spec features not supported in replacement fields: d");
    assertThatThrownBy(() -> format("}", new Value[0])).hasMessage("format: single '}' in format");
    Value raw =
        Values.method(
            t, StarlarkString.ofBytes(new byte[] {(byte) 0xff, '{', '}'}), "format", i(1));
    assertThat(((StarlarkString) raw).toByteArray()).containsExactly((byte) 0xff, (byte) '1');
  }
}
