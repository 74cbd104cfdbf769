package dev.agentcompute.codemode.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.binding.TypeNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtocolTest {

  @Test
  void typedFloatSpelling() {
    assertThat(GoJson.typedFloat(1.0)).isEqualTo("1.0");
    assertThat(GoJson.typedFloat(-0.0)).isEqualTo("-0.0");
    assertThat(GoJson.typedFloat(2.5)).isEqualTo("2.5");
    assertThat(GoJson.typedFloat(100000.0)).isEqualTo("100000.0");
    assertThat(GoJson.typedFloat(999999.5)).isEqualTo("999999.5");
    assertThat(GoJson.typedFloat(1e6)).isEqualTo("1e+06");
    assertThat(GoJson.typedFloat(1234567.0)).isEqualTo("1.234567e+06");
    assertThat(GoJson.typedFloat(0.0001)).isEqualTo("0.0001");
    assertThat(GoJson.typedFloat(1e-5)).isEqualTo("1e-05");
    assertThat(GoJson.typedFloat(1.5e300)).isEqualTo("1.5e+300");
    assertThat(GoJson.plainFloat(2.0)).isEqualTo("2");
    assertThat(GoJson.plainFloat(-0.0)).isEqualTo("-0");
    assertThat(GoJson.plainFloat(1e-7)).isEqualTo("1e-7");
    assertThat(GoJson.plainFloat(1e21)).isEqualTo("1e+21");
    assertThat(GoJson.plainFloat(123456789.0)).isEqualTo("123456789");
  }

  @Test
  void valueEncodingPreservesTypesAndSortsKeys() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("b", 1L);
    m.put("a", List.of(1.0, "<&>", true));
    List<Object> withNull = new ArrayList<>();
    withNull.add(null);
    m.put("c", withNull);
    String enc = Values.encode(m);
    assertThat(enc).isEqualTo("{\"a\":[1.0,\"\\u003c\\u0026\\u003e\",true],\"b\":1,\"c\":[null]}");
    Object back = JsonReader.parse(enc, 10);
    assertThat(((Map<?, ?>) back).get("b")).isEqualTo(1L);
    assertThat(((List<?>) ((Map<?, ?>) back).get("a")).get(0)).isEqualTo(1.0);
    assertThat(JsonReader.parse("9223372036854775807", 1)).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> JsonReader.parse("9223372036854775808", 1))
        .isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> JsonReader.parse("1e999", 1)).isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> JsonReader.parse("[1] x", 3)).isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> JsonReader.parse("01", 3)).isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> Values.encode(Double.NaN)).isInstanceOf(Values.InvalidValue.class);
    assertThat(Values.size("\"é\"")).isEqualTo(4);
  }

  @Test
  void depthIsInclusive() throws Exception {
    assertThat(Values.depth("x")).isEqualTo(1);
    assertThat(Values.depth(List.of("x"))).isEqualTo(2);
    assertThat(Values.validate(List.of(1L), 2)).isEqualTo(List.of(1L));
    assertThatThrownBy(() -> Values.validate(List.of(List.of(1L)), 2))
        .isInstanceOf(Values.DepthExceeded.class);
  }

  @Test
  void framesRoundTripAndRejectViolations() throws Exception {
    assertThat(Frames.encode(new Frame.ProbeAck(1))).hasSize(32);
    TypeNode.Struct input =
        new TypeNode.Struct(
            null,
            null,
            List.of(
                new TypeNode.Field("key", new TypeNode.Str(), false, null),
                new TypeNode.Field(
                    "limit",
                    new TypeNode.Opt(
                        new TypeNode.Int(Long.MIN_VALUE, Long.MAX_VALUE, TypeNode.IntRepr.NONE),
                        TypeNode.OptRepr.NONE),
                    false,
                    null)));
    Frame.Exec exec =
        new Frame.Exec(
            1,
            "def main():\n  return 1\n",
            new Frame.ExecLimits(1, 2, 3, 4, 5),
            List.of(new Manifest.Item("records.entry.lookup", "records.lookup", input)),
            false);
    String enc = Frames.encode(exec);
    Frame back = Frames.decode(enc.getBytes(StandardCharsets.UTF_8), 32);
    assertThat(back)
        .isInstanceOfSatisfying(
            Frame.Exec.class,
            e -> {
              assertThat(e.source()).isEqualTo(exec.source());
              assertThat(e.limits()).isEqualTo(exec.limits());
              assertThat(e.manifest().get(0).input().fields())
                  .extracting(TypeNode.Field::name)
                  .containsExactly("key", "limit");
            });
    for (String bad :
        List.of(
            "{\"type\":\"probe\"}",
            "{\"type\":\"probe\",\"version\":1,\"x\":1}",
            "{\"type\":\"nope\"}",
            "{\"type\":\"final_error\",\"code\":\"boom\"}",
            "{\"type\":\"final_error\",\"code\":\"resource_limit\",\"detail\":\"x\"}",
            "{\"type\":\"native_call\",\"capability_id\":\"\",\"arguments\":{}}",
            "{\"type\":\"native_call\",\"capability_id\":\"a\"}",
            "{\"type\":\"final\"}",
            "[1]")) {
      assertThatThrownBy(() -> Frames.decode(bad.getBytes(StandardCharsets.UTF_8), 8))
          .as(bad)
          .isInstanceOf(ProtocolException.class);
    }
    assertThatThrownBy(() -> Frames.decode(new byte[] {'"', (byte) 0xff, '"'}, 8))
        .isInstanceOf(ProtocolException.class);
  }

  @Test
  void explanationsTravelOnlyWhenAskedFor() throws Exception {
    Frame.Exec plain =
        new Frame.Exec(1, "x", new Frame.ExecLimits(1, 2, 3, 4, 5), List.of(), false);
    assertThat(Frames.encode(plain)).doesNotContain("explain");
    Frame.Exec asked =
        new Frame.Exec(1, "x", new Frame.ExecLimits(1, 2, 3, 4, 5), List.of(), false, true);
    assertThat(Frames.decode(Frames.encode(asked).getBytes(StandardCharsets.UTF_8), 8))
        .isEqualTo(asked);
    Frame.FinalError explained = new Frame.FinalError("resource_limit", null, "step limit");
    assertThat(Frames.encode(explained))
        .isEqualTo(
            "{\"type\":\"final_error\",\"code\":\"resource_limit\",\"explanation\":\"step limit\"}");
    assertThat(Frames.decode(Frames.encode(explained).getBytes(StandardCharsets.UTF_8), 8))
        .isEqualTo(explained);
    assertThat(Frames.encode(new Frame.FinalError("internal", null)))
        .isEqualTo("{\"type\":\"final_error\",\"code\":\"internal\"}");
    for (String bad :
        List.of(
            "{\"type\":\"final_error\",\"code\":\"internal\",\"explanation\":1}",
            "{\"type\":\"final_error\",\"code\":\"internal\",\"explanation\":\"\"}")) {
      assertThatThrownBy(() -> Frames.decode(bad.getBytes(StandardCharsets.UTF_8), 8))
          .as(bad)
          .isInstanceOf(ProtocolException.class);
    }
  }

  @Test
  void framingRejectsEmptyOversizedAndTruncatedFrames() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FrameIO.write(out, "{\"type\":\"final\",\"result\":null}");
    byte[] frame = out.toByteArray();
    assertThat(frame[3]).isEqualTo((byte) 30);
    assertThat(
            new String(FrameIO.read(new ByteArrayInputStream(frame), 64), StandardCharsets.UTF_8))
        .startsWith("{");
    assertThat(FrameIO.read(new ByteArrayInputStream(new byte[0]), 64)).isNull();
    assertThatThrownBy(() -> FrameIO.read(new ByteArrayInputStream(frame), 29))
        .isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> FrameIO.read(new ByteArrayInputStream(new byte[] {0, 0, 0, 0}), 30))
        .isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> FrameIO.read(new ByteArrayInputStream(new byte[] {0, 0}), 30))
        .isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> FrameIO.read(new ByteArrayInputStream(new byte[] {0, 0, 0, 5, 1}), 30))
        .isInstanceOf(java.io.IOException.class);
  }
}
