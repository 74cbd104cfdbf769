package dev.agentcompute.rego.syntax;

import static dev.agentcompute.rego.Policies.compileError;
import static dev.agentcompute.rego.Policies.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Rego v1 grammar: precedence, term forms, rule heads, keywords used as names. */
class ParserTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "1 + 2 * 3 ; 7",
        "(1 + 2) * 3 ; 9",
        "10 - 2 - 3 ; 5",
        "1 + 2 == 3 ; true",
        "2 in [1, 2] == true ; false",
        "{1, 2} | {2, 3} == {1, 2, 3} ; true",
        "{1, 2} & {2, 3} ; [2]",
        "7 % 4 ; 3",
        "-1 + 3 ; 2",
      })
  void operatorsBindByOpaPrecedence(String expr, String json) throws Exception {
    assertThat(value("package t\np := " + expr + "\n", "data.t.p")).isEqualTo(json);
  }

  @Test
  void aBarAfterAPrimaryTermMakesAComprehension() throws Exception {
    assertThat(value("package t\np := {x | some x in [1, 1]}\n", "data.t.p")).isEqualTo("[1]");
  }

  @Test
  void setOfEmptyIsTheEmptySet() throws Exception {
    assertThat(value("package t\np := [set(), {}]\n", "data.t.p")).isEqualTo("[[],{}]");
  }

  @Test
  void rawStringsKeepBackslashes() throws Exception {
    assertThat(value("package t\np := `a\\d`\n", "data.t.p")).isEqualTo("\"a\\\\d\"");
  }

  @Test
  void aKeywordDirectlyFollowedByADotIsAName() throws Exception {
    assertThat(value("package t\nif.x := 1\nnot.y := 2\np := if.x + not.y\n", "data.t.p"))
        .isEqualTo("3");
  }

  @Test
  void aRuleBodyMaySpanLinesInsideBrackets() throws Exception {
    assertThat(
            value(
                "package t\np if {\n  x := [\n    1,\n    2,\n  ]\n  count(x) == 2\n}\n",
                "data.t.p"))
        .isEqualTo("true");
  }

  @Test
  void theOldPartialSetFormStillDefinesASet() throws Exception {
    assertThat(value("package t\np[x] if some x in [1]\nq[\"a\"]\n", "data.t"))
        .isEqualTo("{\"p\":{\"1\":true},\"q\":[\"a\"]}");
  }

  @Test
  void aBodyWithoutIfIsRejected() {
    assertThat(compileError("package t\np { true }\n"))
        .contains("`if` keyword is required before rule body");
  }

  @Test
  void aReferenceStepAfterWhitespaceIsNotPartOfTheReference() {
    assertThat(compileError("package t\np := x [0]\n")).contains("rego_parse_error");
  }

  @Test
  void parseErrorsCarryFileLineAndColumn() {
    assertThat(compileError("package t\n\np := [1,\n"))
        .startsWith("test.rego:4:1: rego_parse_error:");
  }

  @Test
  void anUnterminatedStringIsReportedWhereItStarts() {
    assertThat(compileError("package t\np := \"abc\n"))
        .isEqualTo("test.rego:2:6: rego_parse_error: non-terminated string");
  }

  @Test
  void leadingZerosAreRejected() {
    assertThat(compileError("package t\np := 012\n"))
        .contains("expected number without leading zero");
  }

  @Test
  void deepNestingIsASyntaxErrorNotAStackOverflow() {
    String deep = "[".repeat(5000) + "]".repeat(5000);
    assertThatThrownBy(() -> Parser.parseTerm("deep", deep))
        .isInstanceOf(RegoSyntaxError.class)
        .hasMessageContaining("max parsing recursion depth");
  }

  @Test
  void importsMustBeDataInputOrTheV1Markers() {
    assertThat(compileError("package t\nimport foo.bar\n")).contains("unexpected import path");
  }

  @Test
  void importRegoV1AndFutureKeywordsAreAccepted() throws Exception {
    assertThat(value("package t\nimport rego.v1\nimport future.keywords.in\np := 1\n", "data.t.p"))
        .isEqualTo("1");
  }
}
