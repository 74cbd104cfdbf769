package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ResultTest {

  @Test
  void readsEachJavaTypeAnExecuteResultHolds() {
    Map<String, Object> dict = new TreeMap<>();
    dict.put("count", 2L);
    dict.put("items", List.of("a", true, 1.5));
    dict.put("none", null);
    Result r = Result.of(dict);
    assertThat(r.get("count").asLong()).isEqualTo(2);
    assertThat(r.get("count").asDouble()).isEqualTo(2.0);
    assertThat(r.get("items").get(0).asString()).isEqualTo("a");
    assertThat(r.get("items").get(1).asBoolean()).isTrue();
    assertThat(r.get("items").get(2).asDouble()).isEqualTo(1.5);
    assertThat(r.get("none").isNull()).isTrue();
    assertThat(r.asMap()).containsOnlyKeys("count", "items", "none");
    assertThat(r.get("items").asList()).hasSize(3);
  }

  @Test
  void aWrongTypeOrAMissingKeyNamesWhatWasThere() {
    assertThatThrownBy(() -> Result.of("x").asLong())
        .hasMessage("execute result is a string, not an int");
    assertThatThrownBy(() -> Result.of(null).asMap())
        .hasMessage("execute result is None, not a dict");
    assertThatThrownBy(() -> Result.of(Map.of("a", 1L)).get("b"))
        .hasMessage("execute result has no key \"b\"; its keys are [a]");
    assertThatThrownBy(() -> Result.of(List.of()).get(0))
        .hasMessage("execute result has no index 0; the list has 0 elements");
  }
}
