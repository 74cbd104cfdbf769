package dev.agentcompute.rego.lib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Objects, arrays, sets, JSON paths and patches, walk, types. */
class CollectionBuiltinsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "object.get({\"a\": {\"b\": 1}}, [\"a\", \"b\"], 0) ; 1",
        "object.get({\"a\": 1}, \"z\", \"d\") ; \"d\"",
        "object.keys({\"b\": 1, \"a\": 2}) ; [\"a\",\"b\"]",
        "object.remove({\"a\": 1, \"b\": 2}, [\"a\"]) ; {\"b\":2}",
        "object.filter({\"a\": 1, \"b\": 2}, {\"a\"}) ; {\"a\":1}",
        "object.union({\"a\": {\"x\": 1}, \"b\": 1}, {\"a\": {\"y\": 2}}) ; {\"a\":{\"x\":1,\"y\":2},\"b\":1}",
        "object.union_n([{\"a\": {\"b\": 2}}, {\"a\": 4}, {\"a\": {\"c\": 3}}]) ; {\"a\":{\"c\":3}}",
        "object.subset({\"a\": 1, \"b\": [1, 2, 3]}, {\"b\": [2, 3]}) ; true",
        "object.subset([1, 2, 3], {3, 1}) ; true",
        "array.concat([1], [2]) ; [1,2]",
        "array.slice([1, 2, 3, 4], 1, 10) ; [2,3,4]",
        "array.reverse([1, 2]) ; [2,1]",
        "intersection({{1, 2}, {2, 3}}) ; [2]",
        "union({{1}, {2}}) ; [1,2]",
        "json.filter({\"a\": [{\"b\": 1, \"c\": 2}]}, [\"a/0/b\"]) ; {\"a\":[{\"b\":1}]}",
        "json.remove({\"a\": {\"b\": 1, \"c\": 2}}, {\"a/b\"}) ; {\"a\":{\"c\":2}}",
        "json.patch({\"a\": [1]}, [{\"op\": \"add\", \"path\": \"/a/-\", \"value\": 2}]) ; {\"a\":[1,2]}",
        "json.patch({\"a\": 1}, [{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/b\"}]) ; {\"b\":1}",
        "[path | walk({\"a\": [7]}, [path, _])] ; [[],[\"a\"],[\"a\",0]]",
        "type_name(set()) ; \"set\"",
        "[is_number(1), is_string(1), is_array([]), is_object({}), is_set(set()), is_null(null), is_boolean(false)] ; [true,false,true,true,true,true,true]",
      })
  void evaluatesAsOpaDoes(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "object.remove(\"a\", [\"a\"]) ; eval_type_error: object.remove: operand 1 must be object but got string",
        "object.filter({}, 1) ; eval_type_error: object.filter: operand 2 must be one of {object, set, array} but got number",
        "array.concat([1], {1}) ; eval_type_error: array.concat: operand 2 must be array but got set",
      })
  void rejectsBadOperandsWithOpasMessages(String expr, String message) throws Exception {
    assertThat(Expressions.error(expr)).isEqualTo(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "json.patch([1], [{\"op\": \"add\", \"path\": \"1.2\", \"value\": 0}])",
        "json.patch({\"a\": 1}, [{\"op\": \"test\", \"path\": \"/a\", \"value\": 2}])",
        "json.patch({}, [{\"op\": \"remove\", \"path\": \"/missing\"}])",
      })
  void aPatchThatCannotApplyIsUndefined(String expr) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo("undefined");
  }
}
