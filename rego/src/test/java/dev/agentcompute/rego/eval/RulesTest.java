package dev.agentcompute.rego.eval;

import static dev.agentcompute.rego.Policies.value;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Complete, partial set, partial object and reference-head rules, defaults and else. */
class RulesTest {

  @Test
  void aCompleteRuleWithoutValueIsTrueWhenItsBodyHolds() throws Exception {
    assertThat(value("package t\np if 1 < 2\n", "data.t.p")).isEqualTo("true");
  }

  @Test
  void aCompleteRuleIsUndefinedWhenNoBodyHolds() throws Exception {
    assertThat(value("package t\np if 1 > 2\n", "data.t.p")).isEqualTo("undefined");
  }

  @Test
  void theDefaultAppliesOnlyWhenNoRuleProduces() throws Exception {
    String src = "package t\ndefault p := 0\np := 1 if input.x\n";
    assertThat(value(src, "data.t.p", "{}")).isEqualTo("0");
    assertThat(value(src, "data.t.p", "{\"x\": true}")).isEqualTo("1");
  }

  @Test
  void elseBranchesAreTriedInOrder() throws Exception {
    String src =
        "package t\nf(x) := \"a\" if x == 1\nelse := \"b\" if x == 2\nelse := \"c\"\np := [f(1), f(2), f(3)]\n";
    assertThat(value(src, "data.t.p")).isEqualTo("[\"a\",\"b\",\"c\"]");
  }

  @Test
  void containsRulesBuildASet() throws Exception {
    String src = "package t\np contains x if some x in [3, 1, 3]\np contains 2\n";
    assertThat(value(src, "data.t.p")).isEqualTo("[1,2,3]");
  }

  @Test
  void aSetRuleWithNoSolutionIsTheEmptySet() throws Exception {
    assertThat(value("package t\np contains x if { some x in []; x > 0 }\n", "data.t.p"))
        .isEqualTo("[]");
  }

  @Test
  void partialObjectRulesBuildAnObject() throws Exception {
    String src = "package t\np[k] := v if some k, v in {\"a\": 1, \"b\": 2}\n";
    assertThat(value(src, "data.t.p")).isEqualTo("{\"a\":1,\"b\":2}");
  }

  @Test
  void referenceHeadsWithVariablesNestObjects() throws Exception {
    String src =
        "package t\nby.team[t].member[m] := true if some [m, t] in [[\"ann\", \"ops\"], [\"bo\", \"dev\"]]\n";
    assertThat(value(src, "data.t.by"))
        .isEqualTo(
            "{\"team\":{\"dev\":{\"member\":{\"bo\":true}},\"ops\":{\"member\":{\"ann\":true}}}}");
  }

  @Test
  void aGroundReferenceHeadDefinesACompleteRuleAtThatPath() throws Exception {
    assertThat(value("package t\na.b.c := 1\na.b.d := 2\n", "data.t.a"))
        .isEqualTo("{\"b\":{\"c\":1,\"d\":2}}");
  }

  @Test
  void aPackageDocumentHoldsItsRulesButNotItsFunctions() throws Exception {
    assertThat(value("package t\np := 1\nf(x) := x\n", "data.t")).isEqualTo("{\"p\":1}");
  }

  @Test
  void baseDocumentsAndRulesAtTheSamePathMerge() throws Exception {
    var r =
        dev.agentcompute.rego.Policies.eval(
            java.util.Map.of("t.rego", "package t.b\nq := 1\n"),
            "x = data.t",
            dev.agentcompute.rego.RegoOptions.defaults()
                .withData(
                    (dev.agentcompute.rego.value.RegoObject)
                        dev.agentcompute.rego.value.Json.parse(
                            "{\"t\": {\"a\": 1, \"b\": {\"z\": 2}}}")));
    assertThat(dev.agentcompute.rego.value.Json.write(r.rows().get(0).get(0)))
        .isEqualTo("{\"a\":1,\"b\":{\"q\":1,\"z\":2}}");
  }

  @Test
  void iteratingOverDataYieldsEachKeyOnceAcrossBaseAndVirtualDocuments() throws Exception {
    var r =
        dev.agentcompute.rego.Policies.eval(
            java.util.Map.of(
                "t.rego",
                "package t\nkeys := sort([k | data.a[k]])\n",
                "b.rego",
                "package a.b\nq := 1\n"),
            "x = data.t.keys",
            dev.agentcompute.rego.RegoOptions.defaults()
                .withData(
                    (dev.agentcompute.rego.value.RegoObject)
                        dev.agentcompute.rego.value.Json.parse("{\"a\": {\"b\": {}, \"c\": {}}}")));
    assertThat(dev.agentcompute.rego.value.Json.write(r.rows().get(0).get(0)))
        .isEqualTo("[\"b\",\"c\"]");
  }

  @Test
  void functionsWithSeveralDefinitionsAnswerFromTheOneThatMatches() throws Exception {
    String src =
        "package t\nf(1) := \"one\"\nf(2) := \"two\"\ndefault f(_) := \"many\"\np := [f(1), f(2), f(7)]\n";
    assertThat(value(src, "data.t.p")).isEqualTo("[\"one\",\"two\",\"many\"]");
  }

  @Test
  void aFunctionCalledWithAnExtraArgumentUnifiesItsResultWithIt() throws Exception {
    assertThat(value("package t\nf(x) := x + 1\np if f(1, 2)\n", "data.t.p")).isEqualTo("true");
  }

  @Test
  void rulesInOtherPackagesAreReachedThroughData() throws Exception {
    var r =
        dev.agentcompute.rego.Policies.eval(
            java.util.Map.of(
                "a.rego",
                "package a\nimport data.b\np := b.q + 1\n",
                "b.rego",
                "package b\nq := 41\n"),
            "x = data.a.p",
            dev.agentcompute.rego.RegoOptions.defaults());
    assertThat(r.rows().get(0).get(0).toString()).isEqualTo("42");
  }
}
