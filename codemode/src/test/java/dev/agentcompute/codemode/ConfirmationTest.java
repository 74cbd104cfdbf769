package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.ConfirmationRequired;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Confirmation continuations (docs/reference/policy.md#confirmations) through the CodeMode API. */
class ConfirmationTest {

  record Name(String name) {}

  record Done(String name) {}

  record Empty() {}

  static final Subject ALICE = new Subject("alice");
  static final Subject BOB = new Subject("bob");
  static final TestClock CLOCK = new TestClock();
  static final List<String> RAN = new CopyOnWriteArrayList<>();
  static final List<AccessRequest> EXECUTE = new CopyOnWriteArrayList<>();
  static final String DELETE_WEB =
      "def main():\n    sandbox.list()\n    return sandbox.delete(name='web')\n";

  /** Allows everything; asks for a person's confirmation of every sandbox.pin. */
  static final Policy POLICY =
      new Policy() {
        @Override
        public void authorize(Context ctx, AccessRequest r) throws Exception {
          if (r.kind() == AccessRequest.Kind.EXECUTE) {
            EXECUTE.add(r);
            if (r.name().equals("sandbox.pin")) {
              throw new ConfirmationRequired("pinning keeps a sandbox forever");
            }
          }
        }

        @Override
        public String scopeKey(Context ctx, Subject subject) {
          return subject.id();
        }
      };

  static Server server;

  static Server build(Limits limits) throws CodeModeException {
    return CodeMode.builder(
            Options.builder()
                .policy(POLICY)
                .clock(CLOCK)
                .requireConfirmation("sandbox.stop")
                .limits(limits)
                .build())
        .register(
            Capability.named("sandbox.delete", Name.class, Done.class)
                .id("sandbox.entry.delete")
                .summary("Delete one sandbox.")
                .confirmation(Confirmation.REQUIRED)
                .handler((c, s, in) -> ran("delete " + in.name())))
        .register(
            Capability.named("sandbox.stop", Name.class, Done.class)
                .summary("Stop one sandbox.")
                .handler((c, s, in) -> ran("stop " + in.name())))
        .register(
            Capability.named("sandbox.pin", Name.class, Done.class)
                .summary("Pin one sandbox.")
                .handler((c, s, in) -> ran("pin " + in.name())))
        .register(
            Capability.named("sandbox.list", Empty.class, Empty.class)
                .summary("List sandboxes.")
                .handler(
                    (c, s, in) -> {
                      RAN.add("list");
                      return new Empty();
                    }))
        .build();
  }

  static Done ran(String what) {
    RAN.add(what);
    return new Done(what);
  }

  @BeforeAll
  static void start() throws CodeModeException {
    server = build(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Object run(Subject who, Execution e) throws CodeModeException {
    RAN.clear();
    EXECUTE.clear();
    return server.execute(Context.background(), who, e);
  }

  static CodeModeException failure(Subject who, Execution e) {
    try {
      run(who, e);
    } catch (CodeModeException x) {
      return x;
    }
    throw new AssertionError("the execution succeeded");
  }

  static String tokenFor(String source) {
    return failure(ALICE, Execution.of(source)).pendingConfirmation().orElseThrow().token();
  }

  @Test
  void aCallThatNeedsConfirmationEndsWithATokenWhenNobodyCanBeAsked() {
    CodeModeException e = failure(ALICE, Execution.of(DELETE_WEB));

    PendingConfirmation p = e.pendingConfirmation().orElseThrow();
    assertThat(e.failure()).isEqualTo(Failure.CONFIRMATION_REQUIRED);
    assertThat(p.capability()).isEqualTo("sandbox.delete");
    assertThat(p.arguments()).isEqualTo("name=\"web\"");
    assertThat(p.expiresAt()).isEqualTo(CLOCK.instant().plus(Duration.ofMinutes(5)));
    assertThat(e.clientText())
        .isEqualTo(
            "confirmation required: sandbox.delete(name=\"web\") needs approval; if the user agrees, run "
                + "execute again with confirmation \""
                + p.token()
                + "\" (valid until "
                + p.expiresAt()
                + "). Calls made before this one already ran.");
    assertThat(RAN).containsExactly("list");
  }

  @Test
  void theTokenApprovesThatCallAndThePolicyIsAskedAgain() throws Exception {
    String token = tokenFor(DELETE_WEB);

    Object value = run(ALICE, Execution.of(DELETE_WEB).withConfirmation(token));

    assertThat(value).isEqualTo(java.util.Map.of("name", "delete web"));
    assertThat(EXECUTE).extracting(AccessRequest::name).contains("sandbox.delete");
  }

  @Test
  void aUsedTokenIsInvalidBeforeAnythingRuns() throws Exception {
    String token = tokenFor(DELETE_WEB);
    run(ALICE, Execution.of(DELETE_WEB).withConfirmation(token));

    CodeModeException e = failure(ALICE, Execution.of(DELETE_WEB).withConfirmation(token));

    assertThat(e.clientText()).isEqualTo("invalid confirmation");
    assertThat(RAN).isEmpty();
    assertThat(EXECUTE).isEmpty();
  }

  @Test
  void aTokenForOtherArgumentsIsInvalid() {
    String token = tokenFor(DELETE_WEB);

    CodeModeException e =
        failure(
            ALICE,
            Execution.of("def main():\n    return sandbox.delete(name='db')\n")
                .withConfirmation(token));

    assertThat(e.clientText()).isEqualTo("invalid confirmation");
    assertThat(RAN).isEmpty();
  }

  @Test
  void aTokenForAnotherCapabilityIsInvalid() {
    String token = tokenFor("def main():\n    return sandbox.stop(name='web')\n");

    CodeModeException e = failure(ALICE, Execution.of(DELETE_WEB).withConfirmation(token));

    assertThat(e.clientText()).isEqualTo("invalid confirmation");
    assertThat(RAN).containsExactly("list");
  }

  @Test
  void anExpiredTokenIsInvalid() {
    String token = tokenFor(DELETE_WEB);
    CLOCK.advance(Duration.ofMinutes(5));

    assertThat(failure(ALICE, Execution.of(DELETE_WEB).withConfirmation(token)).clientText())
        .isEqualTo("invalid confirmation");
  }

  @Test
  void aTokenOfAnotherSubjectIsInvalid() {
    String token = tokenFor(DELETE_WEB);

    assertThat(failure(BOB, Execution.of(DELETE_WEB).withConfirmation(token)).clientText())
        .isEqualTo("invalid confirmation");
  }

  @Test
  void aSearchCursorIsNotAConfirmation() throws Exception {
    assertThat(
            failure(ALICE, Execution.of(DELETE_WEB).withConfirmation("search.e30.AAAA"))
                .clientText())
        .isEqualTo("invalid confirmation");
  }

  @Test
  void aCapabilityTheHostListedNeedsConfirmation() {
    CodeModeException e =
        failure(ALICE, Execution.of("def main():\n    return sandbox.stop(name='web')\n"));

    assertThat(e.failure()).isEqualTo(Failure.CONFIRMATION_REQUIRED);
    assertThat(RAN).isEmpty();
  }

  @Test
  void aPolicyCanAskForConfirmationAndItsTokenPassesTheSameAnswerAgain() throws Exception {
    String pin = "def main():\n    return sandbox.pin(name='web')\n";
    String token = tokenFor(pin);

    assertThat(run(ALICE, Execution.of(pin).withConfirmation(token)))
        .isEqualTo(java.util.Map.of("name", "pin web"));
  }

  @Test
  void aPersonWhoApprovesLetsTheCallRun() throws Exception {
    List<ConfirmationPrompt> asked = new CopyOnWriteArrayList<>();

    Object value =
        run(
            ALICE,
            Execution.of(DELETE_WEB)
                .withConfirmer(
                    (ctx, prompt) -> {
                      asked.add(prompt);
                      return true;
                    }));

    assertThat(value).isEqualTo(java.util.Map.of("name", "delete web"));
    assertThat(asked)
        .extracting(ConfirmationPrompt::message)
        .containsExactly("Allow sandbox.delete(name=\"web\")? Delete one sandbox.");
  }

  @Test
  void aPersonWhoDeclinesEndsTheExecutionWithConfirmationDeclined() {
    CodeModeException e = failure(ALICE, Execution.of(DELETE_WEB).withConfirmer((c, p) -> false));

    assertThat(e.clientText()).isEqualTo("confirmation declined");
    assertThat(RAN).containsExactly("list");
  }

  @Test
  void aConfirmerThatFailsDeclines() {
    CodeModeException e =
        failure(
            ALICE,
            Execution.of(DELETE_WEB)
                .withConfirmer(
                    (c, p) -> {
                      throw new IllegalStateException("client went away");
                    }));

    assertThat(e.clientText()).isEqualTo("confirmation declined");
  }

  @Test
  void noAnswerWithinTheConfirmationWaitDeclines() throws Exception {
    try (Server s =
        build(
            Limits.unset()
                .withMaxExecutionTime(Duration.ofSeconds(60))
                .withMaxConfirmationWait(Duration.ofMillis(100)))) {
      CodeModeException e = null;
      try {
        s.execute(
            Context.background(),
            ALICE,
            Execution.of(DELETE_WEB)
                .withConfirmer(
                    (c, p) -> {
                      Thread.sleep(Duration.ofMinutes(5));
                      return true;
                    }));
      } catch (CodeModeException x) {
        e = x;
      }
      assertThat(e).isNotNull();
      assertThat(e.clientText()).isEqualTo("confirmation declined");
    }
  }

  /**
   * The confirmer stands for a person who answers only after the whole execution's budget has
   * passed since it started: had the wait counted, the deadline would have ended it during the
   * wait. The budget leaves a loaded machine room to start the worker before the question.
   */
  @Test
  void theWaitForAPersonDoesNotCountAgainstMaxExecutionTime() throws Exception {
    Duration budget = Duration.ofSeconds(10);
    try (Server s = build(Limits.unset().withMaxExecutionTime(budget))) {
      long started = System.nanoTime();
      Object value =
          s.execute(
              Context.background(),
              ALICE,
              Execution.of(DELETE_WEB)
                  .withConfirmer(
                      (c, p) -> {
                        long past = budget.toNanos() + 500_000_000L;
                        Thread.sleep(Duration.ofNanos(past - (System.nanoTime() - started)));
                        return true;
                      }));

      assertThat(value).isEqualTo(java.util.Map.of("name", "delete web"));
    }
  }

  @Test
  void anUnknownOrRepeatedConfirmationIdFailsTheBuild() {
    Builder b =
        CodeMode.builder(
                Options.builder()
                    .policy(Policy.allowRegistered())
                    .requireConfirmation("nope", "records.entry.lookup", "records.entry.lookup")
                    .build())
            .register(Fixtures.lookup());
    CodeModeException e = null;
    try {
      b.build();
    } catch (CodeModeException x) {
      e = x;
    }
    assertThat(e).isNotNull();
    assertThat(e.getMessage())
        .contains("confirmation capability id \"nope\" does not match a registered capability")
        .contains("confirmation capability id \"records.entry.lookup\" is listed more than once");
  }
}
