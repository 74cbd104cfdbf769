package dev.agentcompute.rego.eval;

import static dev.agentcompute.rego.Policies.rows;
import static dev.agentcompute.rego.Policies.value;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Body semantics: unification, iteration, negation, some, every, comprehensions, with. */
class BodiesTest {

  @Test
  void unificationDestructuresArraysAndObjects() throws Exception {
    assertThat(
            value("package t\np := [a, b] if { [a, {\"k\": b}] = [1, {\"k\": 2}] }\n", "data.t.p"))
        .isEqualTo("[1,2]");
  }

  @Test
  void aReferenceWithAVariableIteratesAndBindsIt() throws Exception {
    assertThat(rows("package t\n", "[10, 20][i] = x"))
        .containsExactly("{\"i\":0,\"x\":10}", "{\"i\":1,\"x\":20}");
  }

  @Test
  void statementsRunOnceTheirInputsAreBoundWhateverTheWrittenOrder() throws Exception {
    assertThat(value("package t\np := y if { y > 1; y = 2 }\n", "data.t.p")).isEqualTo("2");
  }

  @Test
  void aCallArgumentThatIteratesBindsTheVariableItShares() throws Exception {
    assertThat(value("package t\np := foo if { some foo; foo == [2, 1, 0][foo] }\n", "data.t.p"))
        .isEqualTo("1");
  }

  @Test
  void negationSucceedsWhenItsExpressionHasNoSolution() throws Exception {
    assertThat(value("package t\np if not 3 in [1, 2]\n", "data.t.p")).isEqualTo("true");
  }

  @Test
  void someInBindsValuesAndKeyValuePairs() throws Exception {
    assertThat(value("package t\np := {[k, v] | some k, v in [\"a\", \"b\"]}\n", "data.t.p"))
        .isEqualTo("[[0,\"a\"],[1,\"b\"]]");
  }

  @Test
  void everyHoldsWhenTheBodyHoldsForEachElement() throws Exception {
    String src = "package t\np if every x in [1, 2] { x > 0 }\nq if every x in [1, 2] { x > 1 }\n";
    assertThat(value(src, "data.t.p")).isEqualTo("true");
    assertThat(value(src, "data.t.q")).isEqualTo("undefined");
  }

  @Test
  void everyOverAnEmptyCollectionHolds() throws Exception {
    assertThat(value("package t\np if every x in [] { x > 100 }\n", "data.t.p")).isEqualTo("true");
  }

  @Test
  void comprehensionsSeeBoundOuterVariables() throws Exception {
    assertThat(value("package t\np := [y | some y in [1, 2, 3]; y > x] if x := 1\n", "data.t.p"))
        .isEqualTo("[2,3]");
  }

  @Test
  void assignedVariablesInsideAComprehensionStayInside() throws Exception {
    assertThat(
            value(
                "package t\np := x if { ys := [x | some x in [1, 2]]; x := count(ys) }\n",
                "data.t.p"))
        .isEqualTo("2");
  }

  @Test
  void objectComprehensionsRejectConflictingKeys() {
    var e =
        dev.agentcompute.rego.Policies.evalError(
            "package t\np := {k: v | some v in [1, 2]; k := \"a\"}\n",
            "data.t.p",
            dev.agentcompute.rego.Policies.options(null));
    assertThat(e.code()).isEqualTo("eval_conflict_error");
  }

  @Test
  void withReplacesInputForOneExpression() throws Exception {
    String src =
        "package t\ndefault allow := false\nallow if input.user == \"alice\"\np := [a, b] if { a := allow with input as {\"user\": \"alice\"}; b := allow }\n";
    assertThat(value(src, "data.t.p", "{\"user\": \"bob\"}")).isEqualTo("[true,false]");
  }

  @Test
  void withOnAPathBuildsTheInputAroundIt() throws Exception {
    assertThat(value("package t\np := x if x := input.a.b with input.a.b as 7\n", "data.t.p"))
        .isEqualTo("7");
  }

  @Test
  void withReplacesARuleAndWhatDependsOnIt() throws Exception {
    String src = "package t\nq := 1\nr := q + 1\np := x if x := r with data.t.q as 10\n";
    assertThat(value(src, "data.t.p")).isEqualTo("11");
  }

  @Test
  void withCanMockAFunctionByAnotherFunctionOrAValue() throws Exception {
    String src =
        "package t\nf(x) := x\ng(x) := x * 10\np := [a, b, c] if { a := f(1) with f as g; b := f(1) with f as 5; c := count([1]) with count as 9 }\n";
    assertThat(value(src, "data.t.p")).isEqualTo("[10,5,9]");
  }

  @Test
  void withCanMockAnImportedFunction() throws Exception {
    var r =
        dev.agentcompute.rego.Policies.eval(
            java.util.Map.of(
                "t.rego",
                    "package t\nimport data.lib\np := y if y := lib.double(3) with lib.double as lib.triple\n",
                "lib.rego", "package lib\ndouble(x) := x * 2\ntriple(x) := x * 3\n"),
            "x = data.t.p",
            dev.agentcompute.rego.RegoOptions.defaults());
    assertThat(r.rows().get(0).get(0).toString()).isEqualTo("9");
  }

  @Test
  void aMockOfAnotherArityIsRejected() {
    assertThat(
            dev.agentcompute.rego.Policies.compileError(
                "package t\nf(x) := x\np := y if y := f(1) with f as concat\n"))
        .contains("with keyword replacing data.t.f (arity 1) with concat (arity 2)");
  }

  @Test
  void printStatementsAreCompiledOut() throws Exception {
    assertThat(value("package t\np if { print(\"debug\"); true }\n", "data.t.p")).isEqualTo("true");
  }
}
