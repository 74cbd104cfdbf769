package dev.agentcompute.codemode.authz.rego;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The result table as the agent sees it: a CodeMode server whose Policy answers EXECUTE (and
 * DISCOVER) with Rego, executing programs that call a capability.
 */
class RegoAuthorizerEngineTest {

  record LookupIn(String key, OptionalLong limit) {}

  record LookupOut(String key, long count) {}

  /** The decision's outcome is chosen by the call's key; mallory discovers nothing. */
  static final String POLICY =
      """
      package engine

      decision := true if input.arguments.key == "allow"
      decision := false if input.arguments.key == "deny"
      decision := "yes" if input.arguments.key == "string"
      decision := x if {
        input.arguments.key == "boom"
        x := 1 / 0 > 0
      }
      decision if {
        input.arguments.key == "slow"
        count([1 | some x in numbers.range(1, 10000); some y in numbers.range(1, 10000)]) > 0
      }
      decision if {
        input.arguments.key == "limited"
        input.arguments.limit <= 10
        input.subject.id == "alice"
        input.capability == {"id": "records.entry.lookup", "name": "records.lookup"}
      }

      default visible := false
      visible if input.subject.id != "mallory"
      """;

  static final Subject ALICE = new Subject("alice");
  static Server server;
  static RegoAccessPolicy policy;

  @BeforeAll
  static void build() throws Exception {
    Context ctx = Context.background();
    RegoAuthorizer execute =
        RegoAuthorizer.create(ctx, "data.engine.decision", Map.of("engine.rego", POLICY))
            .withMaxSteps(Long.MAX_VALUE);
    policy = RegoAccessPolicy.of(execute, execute.forDecision("data.engine.visible"));
    server =
        CodeMode.builder(
                Options.builder()
                    .policy(policy)
                    .limits(Limits.unset().with("MaxExecutionTime", "20s"))
                    .build())
            .register(
                Capability.named("records.lookup", LookupIn.class, LookupOut.class)
                    .id("records.entry.lookup")
                    .summary("Look up one record by key.")
                    .handler((c, s, in) -> new LookupOut(in.key(), in.limit().orElse(0))))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  private static Object run(Context ctx, String call) throws CodeModeException {
    return server.execute(ctx, ALICE, "def main():\n    return " + call + "\n");
  }

  private static String failure(String call) {
    try {
      run(Context.background(), call);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("execution succeeded: " + call);
  }

  @Test
  void trueLetsTheCallThrough() throws Exception {
    assertThat(run(Context.background(), "records.lookup(key='allow')"))
        .isEqualTo(Map.of("key", "allow", "count", 0L));
  }

  @Test
  void argumentsReachThePolicyAsTheSeedShapesThem() throws Exception {
    assertThat(run(Context.background(), "records.lookup(key='limited', limit=3)"))
        .isEqualTo(Map.of("key", "limited", "count", 3L));
  }

  @Test
  void falseIsPermissionDenied() {
    assertThat(failure("records.lookup(key='deny')")).isEqualTo("permission denied");
  }

  @Test
  void anUndefinedDecisionIsAPolicyFailure() {
    assertThat(failure("records.lookup(key='nothing')")).isEqualTo("authorization policy failure");
  }

  @Test
  void aNonBooleanDecisionIsAPolicyFailure() {
    assertThat(failure("records.lookup(key='string')")).isEqualTo("authorization policy failure");
  }

  @Test
  void anEvaluationFailureIsAPolicyFailure() {
    assertThat(failure("records.lookup(key='boom')")).isEqualTo("authorization policy failure");
  }

  @Test
  void aDiscoverDenialHidesTheCapability() throws Exception {
    Context ctx = Context.background();
    assertThat(server.search(ctx, new Subject("mallory"), "records").results()).isEmpty();
    assertThat(server.search(ctx, ALICE, "records").results()).hasSize(1);
  }

  @Test
  void cancellationDuringTheDecisionEndsTheExecution() throws Exception {
    Context ctx = Context.background().withCancel();
    CompletableFuture<String> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                run(ctx, "records.lookup(key='slow')");
                return "finished";
              } catch (CodeModeException e) {
                return e.clientText();
              }
            });
    // The decision takes far longer than this (10^8 steps; 9 * 10^6 finished within 1.5 s once,
    // and the test with it): the cancellation lands while the policy is still evaluating.
    Thread.sleep(500);
    ctx.cancel();
    assertThat(outcome.get(15, TimeUnit.SECONDS)).isEqualTo("context canceled");
  }
}
