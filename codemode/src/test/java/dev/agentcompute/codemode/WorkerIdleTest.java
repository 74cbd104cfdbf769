package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Worker reuse as hosts configure it (docs/reference/codemode.md#worker-reuse): per subject,
 * bounded by an idle limit.
 */
class WorkerIdleTest {

  static final Subject ALICE = new Subject("alice");
  static final String TRIVIAL = "def main():\n    return 1\n";

  @Test
  void workerReuseSetsTheExecutionsAndTheIdleLimit() {
    Limits l = Limits.unset().withWorkerReuse(50, Duration.ofSeconds(30)).resolve();

    assertThat(l.maxExecutionsPerWorker()).isEqualTo(50);
    assertThat(l.maxWorkerIdleTime()).isEqualTo(Duration.ofSeconds(30));
    assertThat(Limits.unset().resolve().maxWorkerIdleTime()).isEqualTo(Duration.ofSeconds(60));
    assertThat(Limits.unset().resolve().maxExecutionsPerWorker()).as("off by default").isEqualTo(1);
  }

  @Test
  void anIdleWorkerServesItsSubjectUntilItsIdleLimitAndIsThenReplaced() throws Exception {
    TestClock clock = new TestClock();
    Limits limits =
        Limits.unset()
            .withMaxConcurrentExecutions(1)
            .withMaxExecutionTime(Duration.ofSeconds(60))
            .withWorkerReuse(10, Duration.ofSeconds(60));
    List<Long> started = new ArrayList<>();
    try (Server s = new ContractServer().build(limits, Options.builder().clock(clock))) {
      // One spare on top of the one slot: each count is read once the taken spare is replaced.
      s.execute(Context.background(), ALICE, TRIVIAL);
      Spares.awaitFull(s, 1);
      started.add(s.workersStarted());
      clock.advance(Duration.ofSeconds(59));
      s.execute(Context.background(), ALICE, TRIVIAL);
      Spares.awaitFull(s, 1);
      started.add(s.workersStarted());
      clock.advance(Duration.ofSeconds(61));
      s.execute(Context.background(), ALICE, TRIVIAL);
      Spares.awaitFull(s, 1);
      started.add(s.workersStarted());
    }

    assertThat(started)
        .as("reused within its idle limit; replaced by a spare (and the spare by a start) after")
        .containsExactly(2L, 2L, 3L);
  }
}
