package dev.agentcompute.rego.eval;

import static dev.agentcompute.rego.Policies.evalError;
import static dev.agentcompute.rego.Policies.options;
import static dev.agentcompute.rego.Policies.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.rego.RegoEvalException;
import dev.agentcompute.rego.RegoOptions;
import org.junit.jupiter.api.Test;

/** Conflicts, strict builtin errors, the step budget, cancellation and the depth guard. */
class ErrorsTest {

  @Test
  void aCompleteRuleWithTwoValuesIsAConflict() {
    RegoEvalException e = evalError("package t\np := 1\np := 2\n", "data.t.p", options(null));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.CONFLICT);
    assertThat(e.detail())
        .contains("rule data.t.p produced conflicting values")
        .contains("complete rules must not produce multiple outputs");
  }

  @Test
  void aFunctionWithTwoValuesForTheSameArgumentsIsAConflict() {
    RegoEvalException e =
        evalError("package t\nf(_) := 1\nf(_) := 2\np := f(0)\n", "data.t.p", options(null));
    assertThat(e.detail())
        .contains("function data.t.f produced conflicting values for the same inputs");
  }

  @Test
  void aPartialObjectWithTwoValuesForOneKeyIsAConflict() {
    RegoEvalException e =
        evalError("package t\np[\"k\"] := v if some v in [1, 2]\n", "data.t.p", options(null));
    assertThat(e.code()).isEqualTo("eval_conflict_error");
  }

  @Test
  void withoutStrictErrorsAFailingBuiltinIsUndefined() throws Exception {
    var r =
        dev.agentcompute.rego.Policies.eval(
            java.util.Map.of("t.rego", "package t\np := 1 / 0\n"),
            "x = data.t.p",
            RegoOptions.defaults());
    assertThat(r.isUndefined()).isTrue();
  }

  @Test
  void strictErrorsReportTypeErrorsAsSuch() {
    RegoEvalException e = evalError("package t\np := upper(1)\n", "data.t.p", options(null));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.TYPE);
    assertThat(e.detail()).isEqualTo("upper: operand 1 must be string but got number");
  }

  @Test
  void aHugeRangeExhaustsTheStepBudget() {
    RegoEvalException e =
        evalError(
            "package t\np := count(numbers.range(1, 1000000000))\n",
            "data.t.p",
            options(null).withMaxSteps(100_000));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.BUDGET);
  }

  @Test
  void exponentialBacktrackingExhaustsTheStepBudget() {
    String src =
        "package t\nxs := numbers.range(1, 60)\np if { some a in xs; some b in xs; some c in xs; some d in xs; a + b + c + d < 0 }\n";
    RegoEvalException e = evalError(src, "data.t.p", options(null).withMaxSteps(200_000));
    assertThat(e.isBudget()).isTrue();
  }

  @Test
  void catastrophicRegexBacktrackingExhaustsTheStepBudget() {
    String src =
        "package t\np := regex.match(\"^(.*a){20}$\", concat(\"\", [\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"!\"]))\n";
    RegoEvalException e = evalError(src, "data.t.p", options(null).withMaxSteps(100_000));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.BUDGET);
  }

  @Test
  void theCancellationHookStopsEvaluation() {
    String src =
        "package t\np if { some a in numbers.range(1, 5000); some b in numbers.range(1, 5000); a < 0 }\n";
    RegoEvalException e =
        evalError(src, "data.t.p", options(null).withMaxSteps(0).withCancellation(() -> true));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.CANCELED);
  }

  @Test
  void deeplyNestedInputIsEvaluatedWithoutAStackOverflow() throws Exception {
    String deep = "[".repeat(900) + "]".repeat(900);
    assertThat(value("package t\np := count([1 | walk(input, _)])\n", "data.t.p", deep))
        .isEqualTo("900");
  }

  @Test
  void aLongChainOfStatementsHitsTheDepthGuardNotTheStack() {
    StringBuilder body = new StringBuilder("package t\np if {\n");
    for (int i = 0; i < 3000; i++) {
      body.append("  x").append(i).append(" := ").append(i).append('\n');
    }
    body.append("}\n");
    RegoEvalException e = evalError(body.toString(), "data.t.p", options(null));
    assertThat(e.kind()).isEqualTo(RegoEvalException.Kind.DEPTH);
  }
}
