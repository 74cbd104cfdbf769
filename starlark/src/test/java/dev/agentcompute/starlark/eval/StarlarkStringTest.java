package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.call;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.repr;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StarlarkStringTest {
  private final StarlarkThread thread = new StarlarkThread();

  @Test
  void lengthAndIndexCountUtf8Bytes() throws Exception {
    assertThat(s("héllo").len()).isEqualTo(6);
    assertThat(call(thread, "len", s("héllo"))).isEqualTo(i(6));
    assertThat(repr(Operators.index(s("héllo"), i(1)))).isEqualTo("\"\\xc3\"");
  }

  @Test
  void reprUsesGoEscapes() {
    assertThat(repr(s("a\"b\\c\n\t\u0007"))).isEqualTo("\"a\\\"b\\\\c\\n\\t\\a\"");
    assertThat(repr(s("é😿"))).isEqualTo("\"é😿\"");
    assertThat(repr(s("\u0001\u007f"))).isEqualTo("\"\\x01\\x7f\"");
    assertThat(repr(s("\u200b"))).isEqualTo("\"\\u200b\"");
    assertThat(repr(StarlarkString.ofBytes(new byte[] {'a', (byte) 0xff}))).isEqualTo("\"a\\xff\"");
    assertThat(repr(StarlarkBytes.of(new byte[] {'a', (byte) 0xff}))).isEqualTo("b\"a\\xff\"");
  }

  @Test
  void hashBuiltinIsJavaStringHashForStringsAndFnvForBytes() throws Exception {
    assertThat(call(thread, "hash", s("abc"))).isEqualTo(i(96354));
    assertThat(call(thread, "hash", s("😿"))).isEqualTo(i("😿".hashCode()));
    assertThat(call(thread, "hash", StarlarkBytes.of(new byte[0]))).isEqualTo(i(0x811c9dc5L));
  }

  @Test
  void invalidUtf8DecodesOneReplacementPerByteLikeGo() {
    StarlarkString truncated = StarlarkString.ofBytes(new byte[] {(byte) 0xe2, (byte) 0x82, 'x'});
    assertThat(truncated.value()).isEqualTo("\ufffd\ufffdx");
    assertThat(s("é😿").value()).isEqualTo("é😿");
  }

  @Test
  void orderingIsByUnsignedBytes() throws Exception {
    assertThat(Operators.compare(dev.agentcompute.starlark.syntax.Token.LT, s("a"), s("é")))
        .isTrue();
    assertThat(Operators.compare(dev.agentcompute.starlark.syntax.Token.LT, s("ab"), s("b")))
        .isTrue();
  }
}
