package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Context;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spare workers: started ahead of demand on top of the execution slots, taken by an execution that
 * finds a free slot (so it never waits for a start), replaced in the background, bounded, and all
 * gone once the pool is closed. The workers here are plain {@code sleep} processes: the pool only
 * starts, hands out and kills processes, it never speaks the protocol.
 */
@Timeout(120)
class WorkerPoolSparesTest {

  private static final String SLEEP =
      Path.of("/usr/bin/sleep").toFile().exists() ? "/usr/bin/sleep" : "/bin/sleep";

  /** A sleep length no other process uses: it tells this test's processes apart. */
  private final String marker = (300 + Math.abs(UUID.randomUUID().hashCode() % 10_000)) + ".5";

  private WorkerPool pool(int slots, int spares, boolean reuse) {
    return new WorkerPool(
        List.of(SLEEP, marker),
        slots,
        slots,
        Duration.ofSeconds(30),
        spares,
        reuse ? Duration.ofSeconds(60) : null,
        InstantSource.system());
  }

  private long processes() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
        .count();
  }

  private static void awaitThat(String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  @Test
  void sparesAreKeptStartedOnTopOfTheSlots() throws Exception {
    try (WorkerPool p = pool(2, 2, true)) {
      awaitThat("two spares started", () -> p.spares() == 2);
      Worker a = p.acquire("a", Context.background());
      Worker b = p.acquire("b", Context.background());
      assertThat(p.live()).isEqualTo(2);
      awaitThat("both taken spares replaced", () -> p.spares() == 2);
      assertThat(processes()).as("two slots and two spares").isEqualTo(4);
      p.release(a, true);
      p.release(b, true);
    }
  }

  @Test
  void anExecutionWithAFreeSlotTakesARunningSpareInsteadOfStartingOne() throws Exception {
    try (WorkerPool p = pool(1, 1, false)) {
      awaitThat("the spare started", () -> p.spares() == 1);
      long before = System.nanoTime();
      Worker w = p.acquire("a", Context.background());
      assertThat(w.startedNanos).as("started before the execution asked").isLessThan(before);
      assertThat(w.alive()).isTrue();
      awaitThat("the taken spare is replaced", () -> p.spares() == 1 && p.started() == 2);
      p.discard(w);
      awaitThat("the discarded worker's slot is free", () -> p.live() == 0);
    }
  }

  @Test
  void noSlotNoSpare() throws Exception {
    // A spare never serves beyond the slots: with the only slot busy, the next caller waits.
    try (WorkerPool p = pool(1, 1, false)) {
      awaitThat("the spare started", () -> p.spares() == 1);
      Worker w = p.acquire("a", Context.background());
      awaitThat("the spare replaced", () -> p.spares() == 1);
      Context soon = Context.background().withTimeout(Duration.ofMillis(300));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.acquire("b", soon))
          .hasMessage("resource limit exceeded");
      assertThat(p.spares()).isEqualTo(1);
      p.discard(w);
    }
  }

  @Test
  void liveProcessesNeverExceedSlotsPlusSpares() throws Exception {
    try (WorkerPool p = pool(3, 2, false)) {
      List<Thread> callers = new ArrayList<>();
      long[] most = {0};
      for (int c = 0; c < 6; c++) {
        String subject = "s" + (c % 3);
        callers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      for (int i = 0; i < 5; i++) {
                        try {
                          Worker w = p.acquire(subject, Context.background());
                          Thread.sleep(5);
                          p.discard(w);
                        } catch (Exception e) {
                          throw new IllegalStateException(e);
                        }
                      }
                    }));
      }
      while (callers.stream().anyMatch(Thread::isAlive)) {
        most[0] = Math.max(most[0], processes());
        assertThat(p.live()).isLessThanOrEqualTo(3);
        assertThat(p.spares() + p.sparesStarting()).isLessThanOrEqualTo(2);
      }
      for (Thread t : callers) {
        t.join();
      }
      assertThat(most[0]).isLessThanOrEqualTo(5);
    }
  }

  @Test
  void closingLeavesNoProcessBehindIncludingSparesStillStarting() throws Exception {
    WorkerPool p = pool(3, 3, true);
    // Closed at once: the three spares are still being started.
    p.close();
    assertThat(p.sparesStarting()).as("no spare start still in flight").isZero();
    assertThat(processes()).as("no worker outlives close()").isZero();
  }

  @Test
  void closingStopsIdleWorkersAndSpares() throws Exception {
    WorkerPool p = pool(3, 3, true);
    Worker idle = p.acquire("a", Context.background());
    p.release(idle, true);
    awaitThat("spares started", () -> p.spares() == 3);
    p.close();
    assertThat(processes()).as("no worker outlives close()").isZero();
    assertThat(idle.alive()).isFalse();
  }
}
