package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.instance.ProcessCapabilities;
import dev.agentcompute.capabilities.adapter.instance.ProcessCapabilities.OutputView;
import dev.agentcompute.capabilities.adapter.instance.ProcessCapabilities.ProcessView;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.ProcessLimits;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.ExecResult;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Background processes on the real incusd (docs/capabilities.md#background-processes): they outlive
 * the server that started them and are read back by offset from another; the OOM killer, a kill, a
 * process timeout and a wait that runs out are each reported as such; the limits are refused with
 * their names.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class BackgroundProcessesIT {
  private static final String ME = "operator";

  /** Small limits, so the tests reach them: two processes per instance, 1 MiB per stream. */
  private static final ComputeConfig CONFIG =
      IncusHarness.config()
          .withQuotas(IncusHarness.config().quotas().withBackground(new ProcessLimits(2, 1)));

  @RegisterExtension static final RuntimeFixture IT = RuntimeFixture.perClass();
  private static List<CapabilityDefinition<?, ?>> caps;
  private static String sb;

  @BeforeAll
  static void start() {
    IT.start(CONFIG);
    caps = IT.capabilities();
    sb = IT.sandbox("itproc", OptionalLong.empty());
    create("c1", OptionalLong.empty());
    create("c2", OptionalLong.empty());
    // Little memory, so a hog meets the OOM killer quickly.
    create("hog", OptionalLong.of(32));
  }

  private static void create(String name, OptionalLong memoryMb) {
    call(
        caps,
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sb,
            name,
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            memoryMb,
            OptionalLong.empty(),
            Optional.of("none"),
            Optional.empty(),
            Optional.empty()));
  }

  private static <O> O call(List<CapabilityDefinition<?, ?>> on, String name, Record input) {
    return IncusHarness.call(on, ME, name, input);
  }

  private static String background(
      List<CapabilityDefinition<?, ?>> on, String instance, String command, long timeout) {
    ExecResult out =
        call(
            on,
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                instance,
                command,
                timeout == 0 ? OptionalLong.empty() : OptionalLong.of(timeout),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(true)));
    assertThat(out.process()).isPresent();
    return out.process().orElseThrow();
  }

  private static ProcessView get(String instance, String process) {
    return call(
        caps, "instance.process.get", new ProcessCapabilities.ProcessRef(sb, instance, process));
  }

  private static ProcessView await(String instance, String process, long seconds) {
    return call(
        caps,
        "instance.process.wait",
        new ProcessCapabilities.WaitInput(sb, instance, process, OptionalLong.of(seconds)));
  }

  private static ProcessView kill(String instance, String process, String signal) {
    return call(
        caps,
        "instance.process.kill",
        new ProcessCapabilities.KillInput(sb, instance, process, Optional.of(signal)));
  }

  @Test
  void aBackgroundWriterSurvivesTheServerThatStartedItAndIsReadBackByOffsetFromAnother() {
    String process;
    long started = System.nanoTime();
    try (ComputeRuntime first = ComputeRuntime.startIncus(CONFIG, IncusHarness.socket())) {
      process =
          background(
              first.capabilities(),
              "c1",
              "i=0; while [ $i -lt 6 ]; do echo line-$i; echo err-$i >&2; i=$((i+1)); sleep 1;"
                  + " done",
              0);
    }
    // It returned at once, and the server that started it is gone.
    assertThat((System.nanoTime() - started) / 1_000_000_000L).isLessThan(5);
    try (ComputeRuntime second = ComputeRuntime.startIncus(CONFIG, IncusHarness.socket())) {
      ProcessView running =
          call(
              second.capabilities(),
              "instance.process.get",
              new ProcessCapabilities.ProcessRef(sb, "c1", process));
      assertThat(running.status()).isEqualTo("running");
      StringBuilder stdout = new StringBuilder();
      StringBuilder stderr = new StringBuilder();
      long out = 0;
      long err = 0;
      int reads = 0;
      while (true) {
        OutputView o =
            call(
                second.capabilities(),
                "instance.process.output",
                new ProcessCapabilities.OutputInput(
                    sb,
                    "c1",
                    process,
                    OptionalLong.of(out),
                    OptionalLong.of(err),
                    OptionalLong.of(8)));
        reads++;
        stdout.append(o.stdout());
        stderr.append(o.stderr());
        assertThat(o.stdout().length()).isLessThanOrEqualTo(8);
        out = o.stdout_next_offset();
        err = o.stderr_next_offset();
        if (o.status().equals("ended") && !o.more()) {
          break;
        }
        if (!o.more()) {
          sleep(300);
        }
      }
      assertThat(stdout.toString()).isEqualTo("line-0\nline-1\nline-2\nline-3\nline-4\nline-5\n");
      assertThat(stderr.toString()).isEqualTo("err-0\nerr-1\nerr-2\nerr-3\nerr-4\nerr-5\n");
      assertThat(reads).isGreaterThan(6);
      ProcessView ended =
          call(
              second.capabilities(),
              "instance.process.get",
              new ProcessCapabilities.ProcessRef(sb, "c1", process));
      assertThat(ended.status()).isEqualTo("ended");
      assertThat(ended.reason()).contains("exited");
      assertThat(ended.exit_code()).hasValue(0);
      assertThat(ended.stdout_bytes()).isEqualTo(42);
      ProcessCapabilities.ListOutput list =
          call(
              second.capabilities(),
              "instance.process.list",
              new ProcessCapabilities.InstanceRef(sb, "c1"));
      assertThat(list.items()).extracting(ProcessView::process).contains(process);
    }
  }

  @Test
  void aMemoryHogIsReportedAsOomKilled() {
    String process = background(caps, "hog", "awk 'BEGIN { s = \"a\"; while (1) s = s s }'", 0);
    ProcessView ended = await("hog", process, 120);
    assertThat(ended.status()).isEqualTo("ended");
    // Incus's metrics may lag the kill by a few seconds.
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!ended.reason().orElse("").equals("oom_killed") && System.nanoTime() < deadline) {
      sleep(1000);
      ended = get("hog", process);
    }
    assertThat(ended.reason()).contains("oom_killed");
    assertThat(ended.signal()).hasValue(9);
  }

  @Test
  void killEndsTheProcessAndEveryProcessItStarted() {
    String process = background(caps, "c1", "sleep 300 & sleep 301; echo never", 0);
    sleep(300);
    kill("c1", process, "TERM");
    ProcessView ended = await("c1", process, 30);
    assertThat(ended.status()).isEqualTo("ended");
    assertThat(ended.reason()).contains("killed");
    assertThat(ended.signal()).hasValue(15);
    ExecResult ps =
        call(
            caps,
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                "c1",
                "ps",
                OptionalLong.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(ps.stdout()).doesNotContain("sleep 300").doesNotContain("sleep 301");
    assertThatThrownBy(() -> kill("c1", process, "TERM"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("already ended");
  }

  @Test
  void aWaitThatRunsOutAnswersTheProcessStillRunning() {
    String process = background(caps, "c1", "sleep 60", 0);
    long started = System.nanoTime();
    ProcessView waited = await("c1", process, 2);
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    assertThat(waited.status()).isEqualTo("running");
    assertThat(waited.exit_code()).isEmpty();
    assertThat(seconds).isBetween(2L, 10L);
    kill("c1", process, "KILL");
  }

  @Test
  void aProcessPastItsTimeoutIsKilledAndReportedTimedOut() {
    String process = background(caps, "c1", "sleep 60", 1);
    ProcessView ended = await("c1", process, 30);
    assertThat(ended.status()).isEqualTo("ended");
    assertThat(ended.reason()).contains("timed_out");
  }

  @Test
  void theLimitsAreRefusedWithTheirNamesAndValues() {
    String a = background(caps, "c2", "sleep 120", 0);
    String b = background(caps, "c2", "sleep 120", 0);
    assertThatThrownBy(() -> background(caps, "c2", "sleep 120", 0))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("already runs 2 background processes")
        .hasMessageContaining("instance.background_processes = 2");
    kill("c2", a, "KILL");
    kill("c2", b, "KILL");
    await("c2", a, 30);
    await("c2", b, 30);
    // Each stream keeps instance.background_output_mb (1 MiB) and drops the rest.
    String big = background(caps, "c2", "yes abcdefg | head -c 3000000; echo done >&2", 0);
    ProcessView ended = await("c2", big, 60);
    assertThat(ended.exit_code()).hasValue(0);
    assertThat(ended.stdout_bytes()).isEqualTo(1L << 20);
    assertThat(ended.stderr_bytes()).isEqualTo(5);
  }

  @Test
  void aBackgroundProcessRunsAsTheUserInTheDirectoryWithTheEnvironmentAsked() {
    ExecResult out =
        call(
            caps,
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                "c1",
                "echo \"$(id -u) $(pwd) $GREETING\"",
                OptionalLong.empty(),
                Optional.of("1000"),
                Optional.of("/tmp"),
                Optional.empty(),
                Optional.of("GREETING=hello"),
                Optional.of(true)));
    String process = out.process().orElseThrow();
    assertThat(await("c1", process, 30).exit_code()).hasValue(0);
    OutputView o =
        call(
            caps,
            "instance.process.output",
            new ProcessCapabilities.OutputInput(
                sb,
                "c1",
                process,
                OptionalLong.empty(),
                OptionalLong.empty(),
                OptionalLong.empty()));
    assertThat(o.stdout()).isEqualTo("1000 /tmp hello\n");
    assertThatThrownBy(
            () ->
                call(
                    caps,
                    "instance.exec",
                    new InstanceCapabilities.ExecInput(
                        sb,
                        "c1",
                        "true",
                        OptionalLong.empty(),
                        Optional.empty(),
                        Optional.of("/nowhere"),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(true))))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("cwd \"/nowhere\" does not exist on instance \"c1\"");
  }

  @Test
  void anUnknownProcessIsNamedAsNotFound() {
    assertThatThrownBy(() -> get("c1", "p0000000000zz"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("process \"p0000000000zz\" not found on instance \"c1\"");
    assertThatThrownBy(() -> get("c1", "../etc"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("is not a process id");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
