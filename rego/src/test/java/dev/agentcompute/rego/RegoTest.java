package dev.agentcompute.rego;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The front door: compiling, preparing, evaluating, and the public error types. */
class RegoTest {

  private static final String POLICY =
      "package app\n\ndefault allow := false\n\nallow if input.user == \"alice\"\n";

  @Test
  void aPreparedQueryBindsItsVariablesPerRow() throws Exception {
    RegoResult r =
        Rego.compile(Map.of("p.rego", POLICY))
            .prepare("x = data.app.allow")
            .eval(Policies.options("{\"user\": \"alice\"}"));
    assertThat(r.variables()).containsExactly("x");
    assertThat(r.rows()).containsExactly(List.of(RegoBoolean.TRUE));
  }

  @Test
  void anUndefinedQueryHasNoRows() throws Exception {
    RegoResult r =
        Rego.compile(Map.of("p.rego", POLICY))
            .prepare("data.app.nothing = x")
            .eval(RegoOptions.defaults());
    assertThat(r.isUndefined()).isTrue();
  }

  @Test
  void aQueryWithoutVariablesHasOneEmptyRowWhenTrue() throws Exception {
    RegoResult r = Rego.compile(Map.of()).prepare("1 < 2").eval(RegoOptions.defaults());
    assertThat(r.rows()).containsExactly(List.of());
  }

  @Test
  void aDecisionReturnsTheDocumentAtItsReference() throws Exception {
    RegoPolicy p = Rego.compile(Map.of("p.rego", POLICY));
    assertThat(p.prepareDecision(Rego.parseDataRef("data.app.allow")).eval(RegoOptions.defaults()))
        .contains(RegoBoolean.FALSE);
  }

  @Test
  void parseDataRefAcceptsDotsBracketsAndSurroundingWhitespace() throws Exception {
    assertThat(Rego.parseDataRef("  data.a[\"b c\"].d \n"))
        .containsExactly(RegoString.of("a"), RegoString.of("b c"), RegoString.of("d"));
  }

  @Test
  void parseDataRefRejectsVariables() {
    assertThatThrownBy(() -> Rego.parseDataRef("data.a[x]")).hasMessageContaining("not ground");
  }

  @Test
  void parseDataRefRejectsOtherRoots() {
    assertThatThrownBy(() -> Rego.parseDataRef("input.a")).hasMessageContaining("under data");
  }

  @Test
  void parseValueReadsSetsAndNumbers() throws Exception {
    assertThat(Rego.parseValue("{1, 2.0, 1}"))
        .isEqualTo(RegoSet.of(RegoNumber.of(1), RegoNumber.of(2)));
  }

  @Test
  void compileErrorsListEveryProblemWithItsPosition() {
    RegoCompileException e =
        (RegoCompileException)
            org.assertj.core.api.Assertions.catchThrowable(
                () -> Rego.compile(Map.of("a.rego", "package a\np if x > 1\nq if y > 1\n")));
    assertThat(e.problems())
        .extracting(RegoProblem::code)
        .containsExactly("rego_unsafe_var_error", "rego_unsafe_var_error");
    assertThat(e.getMessage())
        .isEqualTo(
            "a.rego:2:6: rego_unsafe_var_error: var x is unsafe\na.rego:3:6: rego_unsafe_var_error: var y is unsafe");
  }

  @Test
  void evalErrorsCarryKindCodeAndPosition() {
    RegoEvalException e =
        Policies.evalError("package a\np := 1 / 0\n", "data.a.p", Policies.options(null));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.BUILTIN);
    assertThat(e.code()).isEqualTo("eval_builtin_error");
    assertThat(e.getMessage()).isEqualTo("test.rego:2:6: eval_builtin_error: div: divide by zero");
  }

  @Test
  void modulesCompileInSortedFileOrderRegardlessOfMapOrder() throws Exception {
    var files = new java.util.LinkedHashMap<String, String>();
    files.put("b.rego", "package p\nx := 1\n");
    files.put("a.rego", "package p\ny := 2\n");
    assertThat(Rego.compile(files).files()).containsExactly("a.rego", "b.rego");
  }
}
