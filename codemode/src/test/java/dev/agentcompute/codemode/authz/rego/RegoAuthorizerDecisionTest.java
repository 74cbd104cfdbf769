package dev.agentcompute.codemode.authz.rego;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.rego.value.Json;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seed's result table for authorize, row by row, and the input document. */
class RegoAuthorizerDecisionTest {

  private static final Context CTX = Context.background();

  private static RegoAuthorizer decision(String ref) throws Exception {
    return RegoAuthorizer.create(CTX, ref, Policies.modules());
  }

  @Test
  void trueAllows() throws Exception {
    decision(Policies.ALLOW).authorize(CTX, Policies.execute("alice", "alpha"));
  }

  @Test
  void falseIsADenial() {
    assertThatThrownBy(
            () -> decision(Policies.ALLOW).authorize(CTX, Policies.execute("bob", "alpha")))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void anArgumentCanTurnAnAllowIntoADenial() {
    assertThatThrownBy(
            () -> decision(Policies.ALLOW).authorize(CTX, Policies.execute("alice", "secret")))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void anUndefinedDecisionIsAnOrdinaryError() {
    assertThatThrownBy(
            () ->
                decision("data.codemode.authz.maybe")
                    .authorize(CTX, Policies.execute("alice", "alpha")))
        .isExactlyInstanceOf(RegoPolicyError.class)
        .hasMessage("rego: decision is undefined");
  }

  @Test
  void aDecisionNamingNoRuleIsUndefined() {
    assertThatThrownBy(
            () -> decision("data.nothing.here").authorize(CTX, Policies.execute("alice", "alpha")))
        .hasMessage("rego: decision is undefined");
  }

  @Test
  void aNonBooleanDecisionIsAnOrdinaryError() {
    assertThatThrownBy(
            () ->
                decision("data.codemode.authz.name")
                    .authorize(CTX, Policies.execute("alice", "alpha")))
        .isExactlyInstanceOf(RegoPolicyError.class)
        .hasMessage("rego: decision must be boolean");
  }

  @Test
  void aBuiltinFailureIsAnOrdinaryErrorNamingIt() {
    assertThatThrownBy(
            () ->
                decision("data.codemode.authz.broken")
                    .authorize(CTX, Policies.execute("alice", null)))
        .isExactlyInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("eval_builtin_error: div: divide by zero");
  }

  @Test
  void anExhaustedStepBudgetIsAnOrdinaryError() {
    assertThatThrownBy(
            () ->
                decision("data.codemode.authz.slow")
                    .withMaxSteps(10_000)
                    .authorize(CTX, Policies.execute("alice", "alpha")))
        .isExactlyInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("eval_budget_error");
  }

  @Test
  void aCanceledContextWinsBeforeEvaluation() {
    Context ctx = CTX.withCancel();
    ctx.cancel();
    assertThatThrownBy(
            () -> decision(Policies.ALLOW).authorize(ctx, Policies.execute("alice", "alpha")))
        .isInstanceOfSatisfying(
            CodeModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.CANCELED));
  }

  @Test
  void cancellationDuringEvaluationWinsOverTheResult() throws Exception {
    Context ctx = CTX.withCancel();
    RegoAuthorizer slower = decision("data.codemode.authz.slower").withMaxSteps(Long.MAX_VALUE);
    Thread canceler =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  ctx.cancel();
                });
    long start = System.nanoTime();
    assertThatThrownBy(() -> slower.authorize(ctx, Policies.execute("alice", "alpha")))
        .isInstanceOf(CodeModeException.class)
        .hasMessage("context canceled");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    canceler.join();
  }

  @Test
  void aNullContextIsAnOrdinaryError() {
    assertThatThrownBy(
            () -> decision(Policies.ALLOW).authorize(null, Policies.execute("alice", "alpha")))
        .isExactlyInstanceOf(RegoPolicyError.class);
  }

  @Test
  void theInputHasExactlySubjectCapabilityAndArguments() {
    AccessRequest r =
        new AccessRequest(
            AccessRequest.Kind.EXECUTE,
            new Subject("subject-1"),
            "records.entry.lookup",
            "records.lookup",
            Map.of("key", "alpha", "limit", 2L));
    assertThat(Json.write(RegoInput.of(r)))
        .isEqualTo(
            "{\"arguments\":{\"key\":\"alpha\",\"limit\":2},"
                + "\"capability\":{\"id\":\"records.entry.lookup\",\"name\":\"records.lookup\"},"
                + "\"subject\":{\"id\":\"subject-1\"}}");
  }

  @Test
  void anOmittedArgumentIsAbsentFromTheInput() {
    assertThat(Json.write(RegoInput.of(Policies.execute("a", null)))).contains("\"arguments\":{}");
  }

  @Test
  void floatsAndBooleansKeepTheirTypesInTheInput() {
    AccessRequest r =
        new AccessRequest(
            AccessRequest.Kind.EXECUTE,
            new Subject("s"),
            "c",
            "c.x",
            Map.of("ratio", 0.5, "on", true));
    assertThat(Json.write(RegoInput.of(r))).contains("\"arguments\":{\"on\":true,\"ratio\":0.5}");
  }
}
