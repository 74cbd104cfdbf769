package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One identity cannot starve the others (docs/reference/codemode.md#fair-slots): a per-subject
 * share of the execution slots, fewest-running-first among waiters, and a bounded wait for a slot.
 * Long executions are held at a gate the test opens, so nothing depends on timing.
 */
class SlotFairnessTest {

  record Empty() {}

  record Done(boolean ok) {}

  static final String GATE = "def main():\n    return gate.wait()\n";
  static final String TRIVIAL = "def main():\n    return 1\n";
  static final Map<String, Object> OPENED = Map.of("ok", true);

  /** Every gate.wait call blocks until the test releases a permit; who started is recorded. */
  final Semaphore gate = new Semaphore(0);

  final List<String> started = new CopyOnWriteArrayList<>();
  final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
  final List<CompletableFuture<Object>> running = new ArrayList<>();
  Server server;

  @AfterEach
  void openTheGateAndClose() throws Exception {
    gate.release(1_000);
    for (CompletableFuture<Object> f : running) {
      f.get(120, TimeUnit.SECONDS);
    }
    callers.shutdown();
    if (server != null) {
      server.close();
    }
  }

  Server build(Limits limits) throws CodeModeException {
    server =
        CodeMode.builder(Options.builder().policy(Policy.allowRegistered()).limits(limits).build())
            .register(
                Capability.named("gate.wait", Empty.class, Done.class)
                    .summary("Wait at the gate.")
                    .handler(
                        (ctx, subject, in) -> {
                          started.add(subject.id());
                          gate.acquire();
                          return new Done(true);
                        }))
            .build();
    return server;
  }

  CompletableFuture<Object> start(String subject, String source) {
    CompletableFuture<Object> f =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return server.execute(Context.background(), new Subject(subject), source);
              } catch (CodeModeException e) {
                return e.clientText();
              }
            },
            callers);
    running.add(f);
    return f;
  }

  static void awaitThat(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for: " + what).isLessThan(end);
      Thread.sleep(5);
    }
  }

  static Limits longExecutions() {
    return Limits.unset().withMaxExecutionTime(Duration.ofMinutes(2));
  }

  @Test
  void theDefaultShareIsHalfTheSlots() {
    Limits l = Limits.unset().resolve();
    assertThat(l.maxConcurrentExecutions()).isEqualTo(8);
    assertThat(l.maxConcurrentExecutionsPerSubject()).isEqualTo(4);
    assertThat(l.maxSlotWait()).isEqualTo(Duration.ofSeconds(30));
    assertThat(Limits.unset().withMaxConcurrentExecutions(3).resolve())
        .extracting(Limits::maxConcurrentExecutionsPerSubject)
        .isEqualTo(2L);
  }

  @Test
  void aTrivialExecuteFromAnotherSubjectCompletesWhileOneSubjectRunsEightLongOnes()
      throws Exception {
    build(longExecutions());
    for (int i = 0; i < 8; i++) {
      start("alice", GATE);
    }
    awaitThat("alice's share runs", () -> started.size() == 4 && server.queuedExecutions() == 4);

    assertThat(server.execute(Context.background(), new Subject("bob"), TRIVIAL)).isEqualTo(1L);

    assertThat(started).as("none of alice's executions ended meanwhile").hasSize(4);
    gate.release(8);
    for (CompletableFuture<Object> f : running) {
      assertThat(f.get(120, TimeUnit.SECONDS)).isEqualTo(OPENED);
    }
  }

  @Test
  void aSubjectAtItsShareWaitsForItsOwnExecutionsWithoutTakingASlot() throws Exception {
    build(longExecutions());
    for (int i = 0; i < 4; i++) {
      start("alice", GATE);
    }
    awaitThat("four run", () -> started.size() == 4);
    CompletableFuture<Object> fifth = start("alice", GATE);
    awaitThat("the fifth waits", () -> server.queuedExecutions() == 1);
    assertThat(started).hasSize(4);
    assertThat(server.liveWorkers()).isLessThanOrEqualTo(8);

    gate.release(1);
    awaitThat("the fifth runs once one of the four ended", () -> started.size() == 5);
    gate.release(4);
    assertThat(fifth.get(120, TimeUnit.SECONDS)).isEqualTo(OPENED);
  }

  @Test
  void theWaitForASlotIsBoundedAndEndsInResourceLimitExceeded() throws Exception {
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger("dev.agentcompute.codemode");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            logged.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(capture);
    try {
      build(longExecutions().withMaxSlotWait(Duration.ofMillis(1)));
      for (int i = 0; i < 4; i++) {
        start("alice", GATE);
        int n = i + 1;
        awaitThat("execution " + n + " runs", () -> started.size() == n);
      }

      assertThat(start("alice", TRIVIAL).get(120, TimeUnit.SECONDS))
          .isEqualTo("resource limit exceeded");

      assertThat(logged)
          .anySatisfy(
              m ->
                  assertThat(m)
                      .contains("subject \"alice\"")
                      .contains("MaxSlotWait")
                      .contains("MaxConcurrentExecutionsPerSubject=4"));
    } finally {
      log.removeHandler(capture);
    }
  }

  @Test
  void aWaitingSubjectThatRunsLessGoesBeforeOneThatRunsMore() throws Exception {
    build(longExecutions().withMaxConcurrentExecutions(2).withMaxConcurrentExecutionsPerSubject(2));
    start("alice", GATE);
    start("alice", GATE);
    awaitThat("alice fills both slots", () -> started.size() == 2);
    for (int i = 0; i < 3; i++) {
      start("alice", GATE);
    }
    awaitThat("alice queues three more", () -> server.queuedExecutions() == 3);
    start("bob", GATE);
    awaitThat("bob queues behind them", () -> server.queuedExecutions() == 4);

    gate.release(1);
    awaitThat("a freed slot is taken", () -> started.size() == 3);

    assertThat(started.get(2)).as("bob runs none, alice runs one").isEqualTo("bob");
  }
}
