package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.Subject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkerModeTest {

  @Test
  void buildRefusesToRunInsideAWorker() throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            BuildInWorkerModeMain.class.getName());
    pb.environment().put(CodeMode.WORKER_MARKER, "1");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(out)
        .contains(
            "invalid registration: build() ran in a CodeMode worker process (CODEMODE_WORKER=1 is"
                + " set); workers start dev.agentcompute.codemode.worker.WorkerMain and never build a"
                + " server: remove CODEMODE_WORKER from the host's environment, or, if a launcher of"
                + " your own starts workers through your main, call CodeMode.serveWorkerAndExit() as"
                + " its first statement");
    assertThat(CodeMode.isWorker()).isFalse();
  }

  @Test
  void theDeadlineCoversQueueing() throws Exception {
    ContractServer caps = new ContractServer();
    try (Server s =
        caps.build(
            Limits.unset()
                .withMaxConcurrentExecutions(1)
                // Room for the holder's 2 s wait on a loaded machine (3 s ran out at a load of 12).
                .withMaxExecutionTime(Duration.ofSeconds(15)))) {
      CompletableFuture<String> holder =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return String.valueOf(
                      s.execute(
                          Context.background(),
                          new Subject("a"),
                          "def main():\n    return slow.wait(millis=2000)\n"));
                } catch (CodeModeException e) {
                  return e.clientText();
                }
              });
      assertThat(caps.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
      Spares.awaitFull(s, 1);
      Context shortDeadline = Context.background().withTimeout(java.time.Duration.ofMillis(300));
      long started = s.workersStarted();
      assertThatThrownBy(
              () -> s.execute(shortDeadline, new Subject("b"), "def main():\n    return 1\n"))
          .isInstanceOfSatisfying(
              CodeModeException.class,
              e -> {
                assertThat(e.clientText()).isEqualTo("resource limit exceeded");
                assertThat(e.deadlineExceeded()).isTrue();
              });
      assertThat(s.workersStarted()).isEqualTo(started);
      assertThat(holder.get(20, TimeUnit.SECONDS)).isEqualTo("{ok=true}");
      assertThat(s.liveWorkers()).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void cancellationInterruptsTheAbandonedHandler() throws Exception {
    ContractServer caps = new ContractServer();
    try (Server s = caps.build(Limits.unset())) {
      Context ctx = Context.background().withCancel();
      CompletableFuture<String> outcome =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  s.execute(
                      ctx, new Subject("a"), "def main():\n    return slow.wait(millis=30000)\n");
                  return "finished";
                } catch (CodeModeException e) {
                  return e.clientText();
                }
              });
      assertThat(caps.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
      ctx.cancel();
      assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("context canceled");
      for (int i = 0; i < 100 && !caps.slowInterrupted; i++) {
        Thread.sleep(20);
      }
      assertThat(caps.slowInterrupted).isTrue();
      assertThat(List.of(s.liveWorkers())).allMatch(n -> n <= 8);
    }
  }
}
