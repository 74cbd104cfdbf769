package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Catalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The host's side of the worker protocol (docs/reference/codemode.md#framing, #lifecycle) end to
 * end: each worker here answers the probe, then breaks the protocol one way. The execution ends
 * with the failure the contract names, never hangs, and never runs more capability calls than the
 * limit allows.
 */
class HostProtocolTest {

  record None() {}

  record Pong(long n) {}

  static final Subject USER = new Subject("u");
  static final int MAX_CALLS = 3;

  @org.junit.jupiter.api.Test
  void aOneShotResultIsAcceptedAtItsFinalFrameNotAtTheWorkersExit() throws Exception {
    List<String> problems = new ArrayList<>();
    Catalog catalog = Catalog.build(List.of(), List.of(), problems);
    Limits limits =
        Limits.unset()
            .withMaxExecutionTime(Duration.ofSeconds(30))
            .withMaxConcurrentExecutions(1)
            .resolve();
    List<String> command = new ArrayList<>(WorkerCommand.build(64L << 20));
    command.set(command.size() - 1, MisbehavingWorker.class.getName());
    command.add("lingers");
    try (Executor executor =
        Executor.start(catalog, Policy.allowRegistered(), limits, command, 1L << 20)) {
      long before = System.nanoTime();
      Object value = executor.execute(Context.background(), USER, "def main():\n    return 1\n");
      long took = System.nanoTime() - before;
      assertThat(value).isEqualTo(1L);
      assertThat(took)
          .as("answered without waiting for the worker to go (it lingers for 60 s)")
          .isLessThan(java.util.concurrent.TimeUnit.SECONDS.toNanos(10));
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (executor.liveWorkers() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(executor.liveWorkers()).as("the lingering worker was killed and reaped").isZero();
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "garbage, internal failure",
    "data-after-final, internal failure",
    "call-flood, internal failure",
    "unknown-capability, internal failure",
    "wrong-frame, internal failure",
    "silent-exit, internal failure",
    "out-of-memory-exit, resource limit exceeded",
    "garbage-before-ready, internal failure",
  })
  void aWorkerThatBreaksTheProtocolEndsTheExecution(String mode, String failure) throws Exception {
    AtomicInteger handled = new AtomicInteger();
    Capability<None, Pong> ping =
        Capability.named("test.ping", None.class, Pong.class)
            .id("test.entry.ping")
            .summary("Ping.")
            .handler((ctx, s, in) -> new Pong(handled.incrementAndGet()));
    List<String> problems = new ArrayList<>();
    Catalog catalog = Catalog.build(List.of(ping), List.of(), problems);
    assertThat(problems).isEmpty();
    Limits limits =
        Limits.unset()
            .withMaxNativeCalls(MAX_CALLS)
            .withMaxExecutionTime(Duration.ofSeconds(60))
            .withMaxConcurrentExecutions(1)
            .resolve();
    List<String> command = new ArrayList<>(WorkerCommand.build(64L << 20));
    command.set(command.size() - 1, MisbehavingWorker.class.getName());
    command.add(mode);
    try (Executor executor =
        Executor.start(catalog, Policy.allowRegistered(), limits, command, 1L << 20)) {
      String outcome;
      try {
        executor.execute(Context.background(), USER, "def main():\n    return 1\n");
        outcome = "a value";
      } catch (CodeModeException e) {
        outcome = e.clientText();
      }
      assertThat(outcome).isEqualTo(failure);
      assertThat(handled.get()).as("capability calls run").isLessThanOrEqualTo(MAX_CALLS);
      if (mode.equals("call-flood")) {
        assertThat(handled).as("every call within the limit ran, none beyond").hasValue(MAX_CALLS);
      }
    }
  }
}
