package dev.agentcompute.codemode.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The warm-up program runs to its result: one that failed part-way would leave what it did not
 * reach to be loaded from the jars at a real request, and nothing else would show it (the warm-up
 * is best effort and silent).
 */
class WarmUpProgramTest {

  @Test
  void theWarmUpProgramRunsToItsResultInBothRounds() {
    assertThat(WorkerMain.warmUp(new StarlarkEngine())).isTrue();
  }

  @Test
  void aFailingWarmUpProgramIsReported() {
    // The same check, shown to be able to fail: a program that ends in an error is not a success.
    String broken = WorkerMain.WARM_UP_SOURCE.replace("sum([1, 2])", "undefined_name");
    assertThat(WorkerMain.warmUp(new StarlarkEngine(), broken)).isFalse();
  }
}
