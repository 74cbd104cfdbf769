package dev.agentcompute.rego.compile;

import static dev.agentcompute.rego.Policies.compileError;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the compiler rejects, and how it says so. */
class CompilerTest {

  @Test
  void anUnboundVariableIsUnsafe() {
    assertThat(compileError("package t\np if x > 1\n"))
        .isEqualTo("test.rego:2:6: rego_unsafe_var_error: var x is unsafe");
  }

  @Test
  void aHeadVariableTheBodyNeverBindsIsUnsafe() {
    assertThat(compileError("package t\np contains x if true\n")).contains("var x is unsafe");
  }

  @Test
  void twoUnboundVariablesUnifiedWithEachOtherAreUnsafe() {
    assertThat(compileError("package t\np if x = y\n")).contains("rego_unsafe_var_error");
  }

  @Test
  void aVariableOnlyANegationMentionsMayNotBeUsedOutsideIt() {
    assertThat(compileError("package t\np := x if not x = 1\n")).contains("var x is unsafe");
  }

  @Test
  void aRuleDependingOnItselfIsRecursive() {
    assertThat(compileError("package t\np if q\nq if p\n"))
        .isEqualTo(
            "test.rego:2:1: rego_recursion_error: rule data.t.p is recursive: data.t.p -> data.t.q -> data.t.p");
  }

  @Test
  void aRuleIteratingItsOwnPackageIsRecursive() {
    assertThat(compileError("package t\np if data.t[_]\n")).contains("rego_recursion_error");
  }

  @Test
  void anUnknownFunctionIsNamed() {
    assertThat(compileError("package t\np if frobnicate(1)\n"))
        .contains("rego_type_error: undefined function frobnicate");
  }

  @Test
  void aNondeterministicBuiltinIsRejectedAndNamed() {
    assertThat(compileError("package t\np := rand.intn(\"x\", 10)\n"))
        .contains(
            "undefined function rand.intn (nondeterministic built-in functions are not available)");
  }

  @Test
  void aWrongNumberOfArgumentsIsAnArityError() {
    assertThat(compileError("package t\np := count(1, 2, 3)\n")).contains("count: arity mismatch");
  }

  @Test
  void aRuleCannotBeBothCompleteAndMultiValue() {
    assertThat(compileError("package t\np := 1\np contains 2\n"))
        .contains("conflicting rules data.t.p found");
  }

  @Test
  void nothingMayBeDefinedBelowACompleteRule() {
    assertThat(compileError("package t\na.b := 1\na.b.c := 2\n"))
        .contains("rule data.t.a.b conflicts with [data.t.a.b.c]");
  }

  @Test
  void twoDefaultsForOneRuleAreRejected() {
    assertThat(compileError("package t\ndefault p := 1\ndefault p := 2\n"))
        .contains("multiple default rules data.t.p found");
  }

  @Test
  void assigningAVariableTwiceIsRejected() {
    assertThat(compileError("package t\np if { x := 1; x := 2 }\n"))
        .contains("var x assigned above");
  }

  @Test
  void assigningAVariableAlreadyReferencedIsRejected() {
    assertThat(compileError("package t\np if { x = 1; x := 2 }\n"))
        .contains("var x referenced above");
  }

  @Test
  void assigningToInputIsRejected() {
    assertThat(compileError("package t\np if input := 1\n")).contains("cannot assign to input");
  }

  @Test
  void functionsOfOneNameMustAgreeOnArity() {
    assertThat(compileError("package t\nf(x) := 1\nf(x, y) := 2\n"))
        .contains("conflicting rules data.t.f found");
  }

  @Test
  void allProblemsOfAllFilesAreReportedTogether() {
    var e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            dev.agentcompute.rego.RegoCompileException.class,
            () ->
                dev.agentcompute.rego.Rego.compile(
                    java.util.Map.of(
                        "a.rego", "package a\np if x\n", "b.rego", "package b\nq if y\n")));
    assertThat(e.problems()).hasSize(2);
  }

  @Test
  void aDefaultValueMustBeConstant() {
    assertThat(compileError("package t\ndefault f(a) := concat(\",\", a)\n"))
        .contains("illegal default rule (value cannot contain call)");
  }

  @Test
  void aFunctionParameterCannotBeAReference() {
    assertThat(compileError("package t\nf(x.y) := 1\n"))
        .contains("function arguments must be variables, constants, arrays or objects");
  }

  @Test
  void metadataWithAnInlineSchemaIsAcceptedAndIgnored() throws Exception {
    String src =
        "package t\n\n# METADATA\n# schemas:\n#   - input: schema[\"https://example.invalid/schema.json\"]\np := 1\n";
    assertThat(dev.agentcompute.rego.Policies.value(src, "data.t.p")).isEqualTo("1");
  }

  @Test
  void metadataWithAnExternalSchemaReferenceIsRejected() {
    String src =
        "package t\n\n# METADATA\n# schemas:\n#   - input:\n#       $ref: \"https://example.invalid/schema.json\"\np := 1\n";
    assertThat(compileError(src))
        .contains("remote schema reference https://example.invalid/schema.json cannot be loaded");
  }
}
