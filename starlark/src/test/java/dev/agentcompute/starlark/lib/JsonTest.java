package dev.agentcompute.starlark.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.eval.Callable;
import dev.agentcompute.starlark.eval.DepthLimitException;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.Operators;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.StepLimitException;
import dev.agentcompute.starlark.eval.Tuple;
import dev.agentcompute.starlark.eval.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  private final StarlarkThread t = new StarlarkThread();
  private final Module json = Json.codeModeModule();

  private Value call(String fn, Value... args) throws EvalException {
    return ((Callable) json.attr(fn)).call(t, args, List.of());
  }

  private Value callKw(String fn, Value[] args, String k, Value v) throws EvalException {
    return ((Callable) json.attr(fn)).call(t, args, List.of(Map.entry(k, v)));
  }

  private String encode(Value v) throws EvalException {
    return ((StarlarkString) call("encode", v)).value();
  }

  private Value decode(String s) throws EvalException {
    return call("decode", StarlarkString.of(s));
  }

  @Test
  void codeModeModuleHasExactlyThreeMembers() {
    assertThat(json.attrNames()).containsExactly("decode", "encode", "indent");
    assertThat(json.attr("encode_indent")).isNull();
    assertThat(Json.fullModule().attrNames())
        .containsExactly("decode", "encode", "encode_indent", "indent");
    assertThat(json.toString()).isEqualTo("<module \"json\">");
  }

  @Test
  void encodeIsCompactWithSortedKeys() throws Exception {
    Dict d = new Dict();
    d.put(StarlarkString.of("y"), StarlarkString.of("two"));
    d.put(StarlarkString.of("x"), StarlarkInt.of(1));
    assertThat(encode(d)).isEqualTo("{\"x\":1,\"y\":\"two\"}");
    assertThat(encode(Tuple.of(NoneValue.NONE, StarlarkFloat.of(1.0), StarlarkFloat.of(12.345e67))))
        .isEqualTo("[null,1.0,1.2345e+68]");
    assertThat(encode(StarlarkString.of("a<b\"\\"))).isEqualTo("\"a<b\\\"\\\\\"");
    assertThat(encode(StarlarkString.of("é\n<"))).isEqualTo("\"é\\n\\u003c\"");
  }

  @Test
  void encodeErrorsCarryAPath() {
    Dict bad = new Dict();
    assertThatThrownBy(
            () -> {
              bad.put(StarlarkInt.of(1), StarlarkString.of("two"));
              encode(bad);
            })
        .hasMessage("json.encode: dict has int key, want string");
    assertThatThrownBy(() -> encode(StarlarkFloat.of(Double.NaN)))
        .hasMessage("json.encode: cannot encode non-finite float nan");
    StarlarkList cyc = new StarlarkList();
    assertThatThrownBy(
            () -> {
              cyc.append(cyc);
              encode(cyc);
            })
        .hasMessage("json.encode: at list index 0: cycle in JSON structure");
    assertThatThrownBy(() -> encode(json.attr("encode")))
        .hasMessage("json.encode: cannot encode builtin_function_or_method as JSON");
  }

  @Test
  void decodeValues() throws Exception {
    assertThat(Operators.repr(decode("{\"one\": 1, \"two\": [2.0, true, null]}")))
        .isEqualTo("{\"one\": 1, \"two\": [2.0, True, None]}");
    assertThat(decode("3539537889086624823140625").toString())
        .isEqualTo("3539537889086624823140625");
    assertThat(((StarlarkString) decode("\"\\ud83d\\ude39\\u0123\"")).value()).isEqualTo("😹ģ");
    assertThat(decode("[]").isFrozen()).isFalse();
  }

  @Test
  void decodeErrorsHaveOffsets() {
    assertThatThrownBy(() -> decode("["))
        .hasMessage("json.decode: at offset 1, unexpected end of file");
    assertThatThrownBy(() -> decode("[1, 2, ]"))
        .hasMessage("json.decode: at offset 7, unexpected character ']'");
    assertThatThrownBy(() -> decode("truefalse"))
        .hasMessage("json.decode: at offset 4, unexpected character 'f' after value");
    assertThatThrownBy(() -> decode("-00"))
        .hasMessage("json.decode: at offset 3, invalid number: -00");
    assertThatThrownBy(() -> decode("{\"one\" 1"))
        .hasMessageContaining("after object key, got '1', want ':'");
    assertThatThrownBy(() -> decode("[1, 2}")).hasMessageContaining("got '}', want ',' or ']'");
  }

  @Test
  void decodeWithDefaultReturnsItOnlyForInvalidJson() throws Exception {
    assertThat(callKw("decode", new Value[] {StarlarkString.of("{")}, "default", StarlarkInt.of(7)))
        .isEqualTo(StarlarkInt.of(7));
    assertThatThrownBy(() -> callKw("decode", new Value[0], "x", StarlarkString.of("1")))
        .hasMessage("json.decode: unexpected keyword argument x");
    StarlarkThread limited = new StarlarkThread();
    limited.setMaxSteps(10);
    String big = "[" + "1,".repeat(100_000) + "1]";
    assertThatThrownBy(
            () ->
                ((Callable) json.attr("decode"))
                    .call(
                        limited,
                        new Value[] {StarlarkString.of(big), StarlarkInt.of(0)},
                        List.of()))
        .isInstanceOf(StepLimitException.class);
  }

  @Test
  void deepNestingIsABudgetErrorInsteadOfAStackOverflow() throws EvalException {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> decode(deep))
        .isInstanceOf(DepthLimitException.class)
        .hasMessage("json.decode: at offset 1000, nesting depth exceeds 1000");
    // default= replaces invalid JSON only: the depth budget still ends the execution.
    assertThatThrownBy(
            () ->
                ((Callable) json.attr("decode"))
                    .call(t, new Value[] {StarlarkString.of(deep), StarlarkInt.of(0)}, List.of()))
        .isInstanceOf(DepthLimitException.class);
    assertThat(decode("[".repeat(1000) + "]".repeat(1000))).isInstanceOf(StarlarkList.class);
  }

  @Test
  void indentMatchesGo() throws Exception {
    String s = "{\"x\":1,\"y\":[\"one\",\"two\"],\"z\":{}}";
    assertThat(((StarlarkString) call("indent", StarlarkString.of(s))).value())
        .isEqualTo("{\n\t\"x\": 1,\n\t\"y\": [\n\t\t\"one\",\n\t\t\"two\"\n\t],\n\t\"z\": {}\n}");
    Value prefixed =
        ((Callable) json.attr("indent"))
            .call(
                t,
                new Value[] {StarlarkString.of("[1]")},
                List.of(
                    Map.entry("prefix", StarlarkString.of(">")),
                    Map.entry("indent", StarlarkString.of("  "))));
    assertThat(((StarlarkString) prefixed).value()).isEqualTo("[\n>  1\n>]");
    assertThatThrownBy(() -> call("indent", StarlarkString.of("!@#")))
        .hasMessageContaining("invalid character");
  }
}
