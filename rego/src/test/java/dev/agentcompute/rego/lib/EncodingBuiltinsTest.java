package dev.agentcompute.rego.lib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** JSON and YAML (marshal, unmarshal, is_valid), base64, hex. */
class EncodingBuiltinsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "json.marshal({\"b\": [1, {2}], \"a\": \"<\"}) ; \"{\\\"a\\\":\\\"\\\\u003c\\\",\\\"b\\\":[1,[2]]}\"",
        "json.unmarshal(\"{\\\"a\\\": [1.0, null]}\") ; {\"a\":[1.0,null]}",
        "json.is_valid(\"{\") ; false",
        "json.is_valid(1) ; false",
        "yaml.marshal({\"a\": [1, \"x y\"], \"b\": {\"c\": true}}) ; \"a:\\n- 1\\n- x y\\nb:\\n  c: true\\n\"",
        "yaml.marshal([\"true\", \"\"]) ; \"- \\\"true\\\"\\n- \\\"\\\"\\n\"",
        "yaml.unmarshal(\"a:\\n  - b: 1\\n  - c\\nd: yes\\n\") ; {\"a\":[{\"b\":1},\"c\"],\"d\":true}",
        "yaml.unmarshal(\"{x: [1, 2], 'y': \\\"z\\\"}\") ; {\"x\":[1,2],\"y\":\"z\"}",
        "yaml.unmarshal(\"s: |\\n  line1\\n  line2\\n\") ; {\"s\":\"line1\\nline2\\n\"}",
        "yaml.is_valid(\"a: 1\\n---\\nb: 2\\n\") ; true",
        "yaml.is_valid(\"a: 1\\n---\\n\\tb: 2\\n\") ; false",
        "yaml.is_valid(\"  test:\\ntest1: hello\\n\") ; false",
        "base64.encode(\"hi\") ; \"aGk=\"",
        "base64.decode(\"aGk=\") ; \"hi\"",
        "base64url.encode_no_pad(\"??\") ; \"Pz8\"",
        "hex.encode(\"hi\") ; \"6869\"",
      })
  void evaluatesAsOpaDoes(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "json.unmarshal(\"{\") ; eval_builtin_error: json.unmarshal: unexpected end of JSON input",
        "json.unmarshal(\"[1] x\") ; eval_builtin_error: json.unmarshal: invalid character 'x' after top-level value",
      })
  void rejectsBadInputWithGoMessages(String expr, String message) throws Exception {
    assertThat(Expressions.error(expr)).isEqualTo(message);
  }
}
