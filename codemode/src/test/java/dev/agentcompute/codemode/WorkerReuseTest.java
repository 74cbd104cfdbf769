package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WorkerReuseTest {

  static final String BUSY =
      "def main():\n    n = 0\n    for i in range(120000):\n        n += 1\n    return n\n";

  @Test
  void aReusedWorkerStartsEveryExecutionFresh() throws Exception {
    Limits limits =
        Limits.unset()
            .withMaxExecutionsPerWorker(5)
            .withMaxConcurrentExecutions(2)
            .withMaxExecutionSteps(600000);
    try (Server s = new ContractServer().build(limits)) {
      Subject alice = new Subject("alice");
      assertThat(
              s.execute(
                  Context.background(),
                  alice,
                  "SECRET = 'alice-data'\ndef main():\n    return SECRET\n"))
          .isEqualTo("alice-data");
      assertThatThrownBy(
              () -> s.execute(Context.background(), alice, "def main():\n    return SECRET\n"))
          .hasMessageStartingWith("invalid program: <codemode>:2:");
      // Each run needs most of the step budget: it only passes if budgets are fresh every time.
      assertThat(s.execute(Context.background(), alice, BUSY)).isEqualTo(120000L);
      assertThat(s.execute(Context.background(), alice, BUSY)).isEqualTo(120000L);
      Spares.awaitFull(s, 2);
      // Two spares at the start, and one to replace the spare alice took: one worker served her.
      assertThat(s.workersStarted()).isEqualTo(3);
      assertThat(s.liveWorkers()).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void workersAreNotSharedAcrossSubjectsAndAreReplacedAfterAbnormalEnds() throws Exception {
    Limits limits = Limits.unset().withMaxExecutionsPerWorker(100).withMaxConcurrentExecutions(2);
    try (Server s = new ContractServer().build(limits)) {
      Subject alice = new Subject("alice");
      Subject bob = new Subject("bob");
      String trivial = "def main():\n    return 1\n";
      for (int i = 0; i < 5; i++) {
        assertThat(s.execute(Context.background(), alice, trivial)).isEqualTo(1L);
        assertThat(s.execute(Context.background(), bob, trivial)).isEqualTo(1L);
      }
      Spares.awaitFull(s, 2);
      long afterTwoSubjects = s.workersStarted();
      assertThat(afterTwoSubjects)
          .as("two spares, and one replacement for each taken")
          .isEqualTo(4);
      assertThatThrownBy(
              () ->
                  s.execute(
                      Context.background(),
                      alice,
                      "def main():\n    return records.lookup(key='forbidden')\n"))
          .hasMessage("permission denied");
      assertThat(s.execute(Context.background(), alice, trivial)).isEqualTo(1L);
      Spares.awaitFull(s, 2);
      assertThat(s.workersStarted()).isGreaterThan(afterTwoSubjects);
      // A third subject evicts an idle worker of another subject rather than waiting forever.
      assertThat(s.execute(Context.background(), new Subject("carol"), trivial)).isEqualTo(1L);
      assertThat(s.liveWorkers()).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void concurrentExecutionsNeverExceedTheLiveWorkerBound() throws Exception {
    Limits limits = Limits.unset().withMaxConcurrentExecutions(2);
    try (Server s = new ContractServer().build(limits)) {
      List<CompletableFuture<Object>> all = new ArrayList<>();
      int[] maxSeen = {0};
      for (int i = 0; i < 6; i++) {
        all.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return s.execute(
                        Context.background(),
                        new Subject("u"),
                        "def main():\n    return health.status()\n");
                  } catch (CodeModeException e) {
                    return e.clientText();
                  }
                }));
      }
      while (!all.stream().allMatch(CompletableFuture::isDone)) {
        maxSeen[0] = Math.max(maxSeen[0], s.liveWorkers());
        Thread.sleep(5);
      }
      for (CompletableFuture<Object> f : all) {
        assertThat(f.get()).isEqualTo(Map.of("state", "ok"));
      }
      assertThat(maxSeen[0]).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void rootPreconditions() throws Exception {
    try (Server s = new ContractServer().build(Limits.unset())) {
      assertThatThrownBy(() -> s.execute(null, new Subject("u"), "def main():\n    return 1\n"))
          .hasMessage("internal failure");
      assertThatThrownBy(() -> s.execute(Context.background(), null, ""))
          .hasMessage("unauthenticated");
    }
  }
}
