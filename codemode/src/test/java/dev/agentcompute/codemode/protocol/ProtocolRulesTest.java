package dev.agentcompute.codemode.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Frame and manifest rules of docs/reference/codemode.md#value-encoding and #frames not covered by
 * ProtocolTest.
 */
class ProtocolRulesTest {

  static Frame decode(String json) throws ProtocolException {
    return Frames.decode(json.getBytes(StandardCharsets.UTF_8), 32);
  }

  static String exec(String manifest) {
    return "{\"type\":\"exec\",\"version\":1,\"source\":\"\",\"limits\":{\"max_source_bytes\":1,\"max_execution_steps\":1,"
        + "\"max_native_calls\":1,\"max_value_depth\":1,\"max_value_bytes\":1},\"manifest\":"
        + manifest
        + "}";
  }

  static String item(String name, String nodes, int root) {
    return "[{\"id\":\"x.id\",\"name\":\""
        + name
        + "\",\"input\":{\"root\":"
        + root
        + ",\"nodes\":["
        + nodes
        + "]}}]";
  }

  @Test
  void detailsAreDroppedOnWriteWhenIllegal() throws Exception {
    assertThat(Frames.encode(new Frame.FinalError("invalid_program", "x".repeat(4097))))
        .isEqualTo("{\"type\":\"final_error\",\"code\":\"invalid_program\"}");
    assertThat(Frames.encode(new Frame.FinalError("invalid_program", "x".repeat(4096))))
        .contains("\"detail\"");
    assertThat(Frames.encode(new Frame.FinalError("internal", "why")))
        .isEqualTo("{\"type\":\"final_error\",\"code\":\"internal\"}");
    assertThat(Frames.encode(new Frame.NativeAbort("line\nbreak")))
        .isEqualTo("{\"type\":\"native_abort\"}");
    assertThat(Frames.encode(new Frame.NativeAbort("x".repeat(257))))
        .isEqualTo("{\"type\":\"native_abort\"}");
    assertThat(Frames.encode(new Frame.NativeAbort(""))).isEqualTo("{\"type\":\"native_abort\"}");
    assertThat(Frames.encode(new Frame.NativeAbort("row 7 is locked")))
        .isEqualTo("{\"type\":\"native_abort\",\"detail\":\"row 7 is locked\"}");
  }

  @Test
  void illegalDetailsAreViolationsOnRead() throws Exception {
    assertThat(
            decode(
                "{\"type\":\"final_error\",\"code\":\"invalid_arguments\",\"detail\":\"unknown argument\"}"))
        .isEqualTo(new Frame.FinalError("invalid_arguments", "unknown argument"));
    for (String bad :
        List.of(
            "{\"type\":\"final_error\",\"code\":\"invalid_program\",\"detail\":\"\"}",
            "{\"type\":\"final_error\",\"code\":\"invalid_program\",\"detail\":null}",
            "{\"type\":\"final_error\",\"code\":\"invalid_program\",\"detail\":1}",
            "{\"type\":\"final_error\",\"code\":\"invalid_program\",\"detail\":\""
                + "x".repeat(4097)
                + "\"}",
            "{\"type\":\"native_abort\",\"detail\":\"a\\nb\"}",
            "{\"type\":\"native_abort\",\"detail\":\"" + "x".repeat(257) + "\"}",
            "{\"type\":\"native_abort\",\"detail\":\"\"}")) {
      assertThatThrownBy(() -> decode(bad)).as(bad).isInstanceOf(ProtocolException.class);
    }
  }

  @Test
  void requiredFieldsVersionsAndUnknownFields() throws Exception {
    assertThat(decode("{\"type\":\"final\",\"result\":null}")).isEqualTo(new Frame.Final(null));
    assertThat(decode("{\"type\":\"native_call\",\"capability_id\":\"a\",\"arguments\":{}}"))
        .isEqualTo(new Frame.NativeCall("a", Map.of()));
    assertThat(decode(exec("[]"))).isInstanceOf(Frame.Exec.class);
    for (String bad :
        List.of(
            "{\"type\":\"native_call\",\"capability_id\":\"a\",\"arguments\":null}",
            "{\"type\":\"native_call\",\"capability_id\":\"a\",\"arguments\":[]}",
            "{\"type\":\"native_call\",\"version\":1,\"capability_id\":\"a\",\"arguments\":{}}",
            "{\"type\":\"native_result\"}",
            "{\"type\":\"final\",\"result\":1,\"version\":1}",
            exec("null"),
            exec("[]").replace("\"source\":\"\",", ""),
            "{\"type\":\"final\",\"result\":1.5e999}",
            "{\"type\":\"final\",\"result\":1}{}")) {
      assertThatThrownBy(() -> decode(bad)).as(bad).isInstanceOf(ProtocolException.class);
    }
  }

  @Test
  void manifestsAreValidatedOnRead() throws Exception {
    String key =
        "{\"kind\":\"str\"},{\"kind\":\"struct\",\"fields\":[{\"name\":\"key\",\"node\":0}]}";
    assertThat(decode(exec(item("records.lookup", key, 1))))
        .isInstanceOfSatisfying(
            Frame.Exec.class,
            e ->
                assertThat(e.manifest())
                    .extracting(Manifest.Item::name)
                    .containsExactly("records.lookup"));
    List<String> bad =
        List.of(
            item(
                "records.lookup",
                "{\"kind\":\"struct\",\"fields\":[{\"name\":\"key\",\"node\":1}]},{\"kind\":\"str\"}",
                0),
            item(
                "records.lookup",
                "{\"kind\":\"str\"},{\"kind\":\"optional\",\"elem\":0},{\"kind\":\"optional\",\"elem\":1},"
                    + "{\"kind\":\"struct\",\"fields\":[{\"name\":\"k\",\"node\":2}]}",
                3),
            item(
                "records.lookup",
                "{\"kind\":\"str\",\"int_min\":1},{\"kind\":\"struct\",\"fields\":[{\"name\":\"k\",\"node\":0}]}",
                1),
            item(
                "records.lookup",
                "{\"kind\":\"int\",\"float32\":true},{\"kind\":\"struct\",\"fields\":[{\"name\":\"k\",\"node\":0}]}",
                1),
            item(
                "records.lookup",
                "{\"kind\":\"bytes\"},{\"kind\":\"struct\",\"fields\":[{\"name\":\"k\",\"node\":0}]}",
                1),
            item(
                "records.lookup",
                "{\"kind\":\"str\"},{\"kind\":\"struct\",\"fields\":[{\"name\":\"not-ident\",\"node\":0}]}",
                1),
            item(
                "records.lookup",
                "{\"kind\":\"str\"},{\"kind\":\"struct\",\"fields\":[{\"name\":\"k\",\"node\":0},"
                    + "{\"name\":\"k\",\"node\":0}]}",
                1),
            item("records.lookup", "{\"kind\":\"str\"}", 0),
            item("len.lookup", key, 1),
            item("single", key, 1));
    for (String m : bad) {
      assertThatThrownBy(() -> decode(exec(m))).as(m).isInstanceOf(ProtocolException.class);
    }
    String twice = item("a.b", key, 1);
    assertThatThrownBy(
            () -> decode(exec(twice.substring(0, twice.length() - 1) + "," + twice.substring(1))))
        .as("duplicate id and name")
        .isInstanceOf(ProtocolException.class);
  }

  @Test
  void duplicateKeysKeepTheLastValue() throws Exception {
    assertThat(decode("{\"type\":\"final\",\"result\":1,\"result\":2}"))
        .isEqualTo(new Frame.Final(2L));
  }
}
