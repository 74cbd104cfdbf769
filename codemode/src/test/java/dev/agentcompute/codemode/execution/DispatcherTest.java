package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Catalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The host side of one native call (docs/reference/codemode.md#execute, R42, R50-R52, R89;
 * #lifecycle step 5): lookup and exact re-binding as protocol checks, authorization on detached
 * canonical arguments, context re-checks, handler outcomes and output budgets.
 */
class DispatcherTest {

  record In(String key, OptionalLong limit, List<String> tags) {}

  record Out(String key, long count, List<String> tags) {}

  static final Subject USER = new Subject("u");

  interface Decision {
    void decide(Context ctx, AccessRequest req) throws Exception;
  }

  final List<AccessRequest> asked = new CopyOnWriteArrayList<>();
  final AtomicInteger handled = new AtomicInteger();
  final List<In> inputs = new CopyOnWriteArrayList<>();

  private Dispatcher dispatcher(Decision decision) {
    Policy policy =
        new Policy() {
          @Override
          public void authorize(Context ctx, AccessRequest req) throws Exception {
            asked.add(req);
            decision.decide(ctx, req);
          }

          @Override
          public String scopeKey(Context ctx, Subject subject) {
            return subject.id();
          }
        };
    Capability<In, Out> cap =
        Capability.named("records.lookup", In.class, Out.class)
            .id("records.entry.lookup")
            .summary("Look up.")
            .handler(
                (ctx, s, in) -> {
                  handled.incrementAndGet();
                  inputs.add(in);
                  return switch (in.key()) {
                    case "null" -> null;
                    case "big" -> new Out("x".repeat(200), 0, in.tags());
                    default -> new Out(in.key(), in.limit().orElse(0), in.tags());
                  };
                });
    List<String> problems = new ArrayList<>();
    Catalog catalog = Catalog.build(List.of(cap), List.of(), problems);
    assertThat(problems).isEmpty();
    return new Dispatcher(catalog, policy, Limits.unset().withMaxValueBytes(128).resolve());
  }

  private static Map<String, Object> args(String key) {
    Map<String, Object> m = new HashMap<>();
    m.put("key", key);
    m.put("tags", new ArrayList<>(List.of("a")));
    return m;
  }

  private static long[] budget() {
    return new long[] {1000};
  }

  @Test
  void unknownIdsAndArgumentsThatDoNotRebindAreProtocolViolations() {
    Dispatcher d = dispatcher((ctx, req) -> {});
    assertThatThrownBy(
            () -> d.call(Context.background(), USER, "records.lookup", args("k"), budget()))
        .as("a name is not an id")
        .isInstanceOf(Dispatcher.Violation.class);
    Map<String, Object> wrongType = args("k");
    wrongType.put("key", 1L);
    assertThatThrownBy(
            () -> d.call(Context.background(), USER, "records.entry.lookup", wrongType, budget()))
        .isInstanceOf(Dispatcher.Violation.class);
    Map<String, Object> unknown = args("k");
    unknown.put("extra", "x");
    assertThatThrownBy(
            () -> d.call(Context.background(), USER, "records.entry.lookup", unknown, budget()))
        .isInstanceOf(Dispatcher.Violation.class);
    assertThat(asked).as("the policy is never asked for a call that does not bind").isEmpty();
    assertThat(handled).hasValue(0);
  }

  @Test
  void thePolicyIsAskedOncePerCallOnDetachedCanonicalArguments() throws Exception {
    Dispatcher d =
        dispatcher(
            (ctx, req) -> {
              try {
                req.arguments().put("key", "changed");
                @SuppressWarnings("unchecked")
                List<Object> tags = (List<Object>) req.arguments().get("tags");
                tags.add("injected");
              } catch (UnsupportedOperationException | ClassCastException immutable) {
                // an immutable map is detached too
              }
            });
    Dispatcher.Result r =
        d.call(Context.background(), USER, "records.entry.lookup", args("k"), budget());
    assertThat(asked).hasSize(1);
    assertThat(asked.getFirst().kind()).isEqualTo(AccessRequest.Kind.EXECUTE);
    assertThat(asked.getFirst().operation()).isEqualTo("records.entry.lookup");
    assertThat(asked.getFirst().name()).isEqualTo("records.lookup");
    assertThat(asked.getFirst().subject()).isEqualTo(USER);
    assertThat(inputs.getFirst()).isEqualTo(new In("k", OptionalLong.empty(), List.of("a")));
    assertThat(r.value()).isEqualTo(Map.of("key", "k", "count", 0L, "tags", List.of("a")));
    d.call(Context.background(), USER, "records.entry.lookup", args("k"), budget());
    assertThat(asked).as("a prior allow grants nothing").hasSize(2);
  }

  @Test
  void denialsAndPolicyErrorsMapToTheirClasses() {
    assertThat(
            outcome(
                (ctx, req) -> {
                  throw new AccessDenied("reason stays on the host");
                }))
        .isEqualTo("permission denied");
    assertThat(
            outcome(
                (ctx, req) -> {
                  throw new Exception("wrapper", new AccessDenied());
                }))
        .as("a denial wrapped by the authorizer is still a denial")
        .isEqualTo("permission denied");
    assertThat(
            outcome(
                (ctx, req) -> {
                  throw new Exception("backend down");
                }))
        .isEqualTo("authorization policy failure");
    assertThat(
            outcome(
                (ctx, req) -> {
                  throw new java.util.concurrent.CancellationException("while the request is live");
                }))
        .isEqualTo("authorization policy failure");
    assertThat(
            outcome(
                (ctx, req) -> {
                  throw new AssertionError("bug");
                }))
        .isEqualTo("authorization policy failure");
    assertThat(handled).hasValue(0);
  }

  private String outcome(Decision decision) {
    try {
      dispatcher(decision)
          .call(Context.background(), USER, "records.entry.lookup", args("k"), budget());
      return "allowed";
    } catch (CodeModeException e) {
      return e.clientText();
    } catch (Dispatcher.Violation v) {
      return "violation";
    }
  }

  @Test
  void aStaleAllowAfterCancellationNeverStartsTheHandler() {
    Context ctx = Context.background().withCancel();
    Dispatcher d = dispatcher((c, req) -> ctx.cancel());
    assertThatThrownBy(() -> d.call(ctx, USER, "records.entry.lookup", args("k"), budget()))
        .isInstanceOfSatisfying(
            CodeModeException.class, e -> assertThat(e.clientText()).isEqualTo("context canceled"));
    assertThat(asked).hasSize(1);
    assertThat(handled).hasValue(0);
    Context canceled = Context.background().withCancel();
    canceled.cancel();
    assertThatThrownBy(() -> d.call(canceled, USER, "records.entry.lookup", args("k"), budget()))
        .hasMessage("context canceled");
    assertThat(asked).as("not asked once the context has ended").hasSize(1);
  }

  @Test
  void outputFailuresAndBudgets() throws Exception {
    Dispatcher d = dispatcher((ctx, req) -> {});
    assertThatThrownBy(
            () ->
                d.call(Context.background(), USER, "records.entry.lookup", args("null"), budget()))
        .hasMessage("capability failed");
    assertThatThrownBy(
            () -> d.call(Context.background(), USER, "records.entry.lookup", args("big"), budget()))
        .as("above MaxValueBytes")
        .hasMessage("resource limit exceeded");
    long[] remaining = {60};
    Dispatcher.Result first =
        d.call(Context.background(), USER, "records.entry.lookup", args("k"), remaining);
    assertThat(first.bytes()).isEqualTo("{\"count\":0,\"key\":\"k\",\"tags\":[\"a\"]}".length());
    assertThat(remaining[0]).isEqualTo(60 - first.bytes());
    assertThatThrownBy(
            () -> d.call(Context.background(), USER, "records.entry.lookup", args("k"), remaining))
        .as("the intermediate budget is spent")
        .hasMessage("resource limit exceeded");
    assertThat(remaining[0]).as("a failed result is not debited").isEqualTo(60 - first.bytes());
  }
}
