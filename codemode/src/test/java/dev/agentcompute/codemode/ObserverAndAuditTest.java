package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The execution observer (progress) and the audit hook of native calls
 * (docs/reference/codemode.md#hooks).
 */
class ObserverAndAuditTest {

  record Step(long n) {}

  static final Subject ALICE = new Subject("alice");
  static final TestClock CLOCK = new TestClock();
  static final List<NativeCallRecord> AUDIT = new CopyOnWriteArrayList<>();
  static volatile boolean auditBroken;
  static Server server;

  /** What an observer saw, as text: "done work.step 1", "stage work.step 0 half 0.5". */
  static final class Seen implements ExecutionObserver {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void callCompleted(String capability, long completed) {
      events.add("done " + capability + " " + completed);
    }

    @Override
    public void stage(String capability, long completed, String message, OptionalDouble fraction) {
      events.add(
          "stage "
              + capability
              + " "
              + completed
              + " "
              + message
              + (fraction.isPresent() ? " " + fraction.getAsDouble() : ""));
    }
  }

  @BeforeAll
  static void build() throws CodeModeException {
    server =
        CodeMode.builder(
                Options.builder()
                    .authorizer(
                        (ctx, r) -> {
                          if (Long.valueOf(13).equals(r.arguments().get("n"))) {
                            throw new AccessDenied();
                          }
                        })
                    .clock(CLOCK)
                    .audit(
                        r -> {
                          AUDIT.add(r);
                          if (auditBroken) {
                            throw new IllegalStateException("audit log full");
                          }
                        })
                    .limits(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60)))
                    .build())
            .register(
                Capability.named("work.step", Step.class, Step.class)
                    .summary("Do one step.")
                    .handler(
                        (ctx, s, in) -> {
                          CapabilityCall call = CapabilityCall.of(ctx);
                          call.resource("sandbox-" + in.n());
                          call.progress("starting");
                          call.progress("half", 1, 2);
                          if (in.n() < 0) {
                            throw new AgentError("negative step");
                          }
                          return in;
                        }))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Object run(String body, ExecutionObserver observer) throws CodeModeException {
    AUDIT.clear();
    return server.execute(
        Context.background(),
        ALICE,
        Execution.of("def main():\n" + body.indent(4)).withObserver(observer));
  }

  @Test
  void theObserverHearsOfEachCompletedCallAndEachStage() throws Exception {
    Seen seen = new Seen();

    run("return [work.step(n=1), work.step(n=2)]", seen);

    assertThat(seen.events)
        .containsExactly(
            "stage work.step 0 starting",
            "stage work.step 0 half 0.5",
            "done work.step 1",
            "stage work.step 1 starting",
            "stage work.step 1 half 0.5",
            "done work.step 2");
  }

  @Test
  void aFailedCallIsNotCountedAsCompleted() {
    Seen seen = new Seen();

    assertThat(Failing.failure(() -> run("return work.step(n=-1)", seen)))
        .isEqualTo("capability failed: negative step");
    assertThat(seen.events).noneMatch(e -> e.startsWith("done"));
  }

  @Test
  void anObserverThatThrowsChangesNoResult() throws Exception {
    ExecutionObserver broken =
        new ExecutionObserver() {
          @Override
          public void callCompleted(String capability, long completed) {
            throw new IllegalStateException("client gone");
          }

          @Override
          public void stage(String c, long n, String m, OptionalDouble f) {
            throw new IllegalStateException("client gone");
          }
        };

    assertThat(run("return work.step(n=3)", broken)).isEqualTo(Map.of("n", 3L));
  }

  @Test
  void everyNativeCallLeavesOneAuditRecordWithoutArguments() throws Exception {
    run("return work.step(n=1)", ExecutionObserver.NONE);
    String denied = Failing.failure(() -> run("return work.step(n=13)", ExecutionObserver.NONE));

    assertThat(denied).isEqualTo("permission denied");
    assertThat(AUDIT).hasSize(1);
    NativeCallRecord r = AUDIT.getFirst();
    assertThat(r.time()).isEqualTo(CLOCK.instant());
    assertThat(r.subject()).isEqualTo("alice");
    assertThat(r.capabilityId()).isEqualTo("work.step");
    assertThat(r.outcome()).isEqualTo("permission_denied");
    assertThat(r.resource()).as("the handler never ran").isNull();
    assertThat(r.duration().isNegative()).isFalse();
  }

  @Test
  void theAuditRecordCarriesTheOutcomeAndTheResourceTheHandlerNamed() throws Exception {
    run("return [work.step(n=1), work.step(n=2)]", ExecutionObserver.NONE);

    assertThat(AUDIT)
        .extracting(NativeCallRecord::outcome, NativeCallRecord::resource)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("ok", "sandbox-1"),
            org.assertj.core.groups.Tuple.tuple("ok", "sandbox-2"));
    assertThat(Failing.failure(() -> run("return work.step(n=-1)", ExecutionObserver.NONE)))
        .startsWith("capability failed");
    assertThat(AUDIT.getFirst().outcome()).isEqualTo("capability_failure");
  }

  @Test
  void anAuditSinkThatThrowsChangesNoResult() throws Exception {
    auditBroken = true;
    try {
      assertThat(run("return work.step(n=4)", ExecutionObserver.NONE)).isEqualTo(Map.of("n", 4L));
    } finally {
      auditBroken = false;
    }
  }

  @Test
  void outsideANativeCallACapabilityCallReportsNothing() {
    CapabilityCall none = CapabilityCall.of(Context.background());

    none.progress("nothing");
    none.resource("nothing");
    assertThat(none).isSameAs(CapabilityCall.NONE);
  }

  /** The client text of a call that must fail. */
  static final class Failing {
    interface Call {
      void run() throws CodeModeException;
    }

    static String failure(Call c) {
      try {
        c.run();
      } catch (CodeModeException e) {
        return e.clientText();
      }
      throw new AssertionError("succeeded");
    }
  }
}
