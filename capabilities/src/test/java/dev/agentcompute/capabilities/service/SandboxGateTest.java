package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SandboxGateTest {
  private final SandboxGate gate = new SandboxGate();

  @Test
  void mutationsOfOneSandboxNeverOverlap() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 200; i++) {
        pool.submit(
            () ->
                gate.run(
                    "s1",
                    () -> {
                      maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      Thread.onSpinWait();
                      inside.decrementAndGet();
                    }));
      }
    }
    assertThat(maxInside.get()).isEqualTo(1);
    assertThat(gate.activeKeys()).isZero();
  }

  @Test
  void differentSandboxesProceedInParallel() throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
      Future<Boolean> a = pool.submit(() -> gate.run("a", () -> awaitBoth(bothInside)));
      Future<Boolean> b = pool.submit(() -> gate.run("b", () -> awaitBoth(bothInside)));
      assertThat(a.get(5, TimeUnit.SECONDS)).isTrue();
      assertThat(b.get(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static boolean awaitBoth(CountDownLatch latch) {
    latch.countDown();
    try {
      return latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aWaiterThatIsCancelledGivesUpWithoutHoldingTheGate() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Throwable> waiterFailure = new AtomicReference<>();
    Thread holder =
        Thread.ofPlatform()
            .start(
                () ->
                    gate.run(
                        "s",
                        () -> {
                          holding.countDown();
                          try {
                            release.await();
                          } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                          }
                        }));
    holding.await();
    Thread waiter =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    gate.run("s", () -> {});
                  } catch (Throwable t) {
                    waiterFailure.set(t);
                  }
                });
    waiter.interrupt();
    waiter.join(5000);
    assertThat(waiterFailure.get())
        .isInstanceOf(CancellationException.class)
        .hasMessage("context canceled");
    release.countDown();
    holder.join(5000);
    assertThat(gate.run("s", () -> "free again")).isEqualTo("free again");
    assertThat(gate.activeKeys()).isZero();
  }
}
