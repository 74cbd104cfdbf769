package dev.agentcompute.rego.lib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** String builtins, indexed by code point as OPA indexes by rune. */
class StringBuiltinsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '\'',
      value = {
        "concat(\",\", [\"a\", \"b\"]) ; \"a,b\"",
        "concat(\"-\", {\"b\", \"a\"}) ; \"a-b\"",
        "indexof(\"μx\", \"x\") ; 1",
        "indexof_n(\"abab\", \"b\") ; [1,3]",
        "substring(\"aåäö\", 1, 2) ; \"åä\"",
        "substring(\"abc\", 1, -1) ; \"bc\"",
        "strings.count(\"cheese\", \"e\") ; 3",
        "strings.count(\"ab\", \"\") ; 3",
        "strings.reverse(\"añb\") ; \"bña\"",
        "split(\"a.b.\", \".\") ; [\"a\",\"b\",\"\"]",
        "split(\"ab\", \"\") ; [\"a\",\"b\"]",
        "replace(\"aaa\", \"a\", \"b\") ; \"bbb\"",
        "strings.replace_n({\"a\": \"1\", \"b\": \"2\"}, \"abc\") ; \"12c\"",
        "trim(\"..a.b..\", \".\") ; \"a.b\"",
        "trim_left(\"xxa\", \"x\") ; \"a\"",
        "trim_right(\"axx\", \"x\") ; \"a\"",
        "trim_prefix(\"prefix-a\", \"prefix-\") ; \"a\"",
        "trim_suffix(\"a.rego\", \".rego\") ; \"a\"",
        "trim_space(\"  a \\t\") ; \"a\"",
        "upper(\"abc\") ; \"ABC\"",
        "lower(\"ÀB\") ; \"àb\"",
        "format_int(255, 16) ; \"ff\"",
        "format_int(-5.9, 10) ; \"-5\"",
        "startswith(\"abc\", \"ab\") ; true",
        "endswith(\"abc\", \"bc\") ; true",
        "contains(\"abc\", \"d\") ; false",
        "strings.any_prefix_match([\"a/b\", \"c\"], \"a/\") ; true",
        "strings.any_suffix_match(\"x.json\", [\".yaml\", \".json\"]) ; true",
      })
  void evaluatesAsOpaDoes(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '\'',
      value = {
        "concat(\",\", [1]) ; eval_type_error: concat: operand 2 must be array of strings but got array containing number",
        "indexof(\"a\", \"\") ; eval_builtin_error: indexof: empty search character",
        "substring(\"a\", -1, 1) ; eval_builtin_error: substring: negative offset",
        "format_int(1, 3) ; eval_type_error: format_int: operand 2 must be one of {2, 8, 10, 16}",
      })
  void rejectsBadOperandsWithOpasMessages(String expr, String message) throws Exception {
    assertThat(Expressions.error(expr)).isEqualTo(message);
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '\'',
      value = {
        "sprintf(\"%s-%d\", [\"a\", 7]) ; \"a-7\"",
        "sprintf(\"%v\", [[\"x\", 1, {1, 2}]]) ; \"[\\\"x\\\", 1, {1, 2}]\"",
        "sprintf(\"%.2f\", [3.14159]) ; \"3.14\"",
        "sprintf(\"%5d|%-3s|\", [42, \"a\"]) ; \"   42|a  |\"",
        "sprintf(\"%x %X %o %b\", [255, 255, 8, 5]) ; \"ff FF 10 101\"",
        "sprintf(\"%v\", [true]) ; \"true\"",
        "sprintf(\"%d\", [\"s\"]) ; \"%!d(string=s)\"",
        "sprintf(\"%d %d\", [1]) ; \"1 %!d(MISSING)\"",
        "sprintf(\"%d\", [1, 2]) ; \"1%!(EXTRA int=2)\"",
        "sprintf(\"%e\", [1234.5]) ; \"1.234500e+03\"",
        "sprintf(\"%v\", [1e100]) ; \"1e+100\"",
        "sprintf(\"100%%\", []) ; \"100%\"",
      })
  void sprintfFollowsGoFormatting(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }
}
