package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.model.ExecResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Sandboxes created, used and deleted by several sessions at once on the real incusd all succeed,
 * and nothing of them is left behind (Incus' own races while bridges and veths go away are retried,
 * not reported to the agent).
 */
class ConcurrentLifecycleIT {
  private static final int SESSIONS = 4;

  /**
   * Cycles per session: 10 by default (40 sandboxes, the four sessions overlapping throughout),
   * {@code -Dconcurrent.cycles=25} for the longer soak this test ran before. Each cycle costs 2-3 s
   * of a 2-core machine, most of it incusd's, so the default keeps the whole run's time in bounds.
   */
  private static final int CYCLES = Integer.getInteger("concurrent.cycles", 10);

  private static final String PREFIX = IncusHarness.uniqueName("itcc");

  private static ComputeRuntime runtime;
  private static List<CapabilityDefinition<?, ?>> caps;
  private static final List<String> created = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() {
    runtime = IncusHarness.start();
    caps = runtime.capabilities();
  }

  @AfterAll
  static void stop() {
    try {
      for (String name : created) {
        try {
          new ComputeCalls(runtime).deleteSandbox(name);
        } catch (RuntimeException gone) {
          // deleted by its cycle
        }
      }
    } finally {
      runtime.close();
    }
  }

  private static <O> O call(String name, Record input) {
    return IncusHarness.call(caps, "operator", name, input);
  }

  /** One agent's cycle: a sandbox, a container in it, a command, then everything deleted. */
  private static void cycle(String sandbox) {
    created.add(sandbox);
    call(
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(sandbox), Optional.empty(), OptionalLong.of(30), Optional.empty()));
    call("instance.create", InstanceCapabilities.CreateInput.of(sandbox, "c1", "busybox"));
    long started = System.nanoTime();
    ExecResult out =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sandbox,
                "c1",
                "echo ok",
                OptionalLong.of(30),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    // All of the result, so that a failure shows what came back and how long it took (an empty
    // stdout alone did not say whether the command failed or its output was lost).
    String seen =
        String.format(
            "echo ok in %s: exit code %d, stdout \"%s\", stderr \"%s\", timed out %s, %d ms",
            sandbox,
            out.exit_code(),
            out.stdout(),
            out.stderr(),
            out.timed_out(),
            (System.nanoTime() - started) / 1_000_000);
    assertThat(out.exit_code()).as(seen).isZero();
    assertThat(out.stderr()).as(seen).isEmpty();
    assertThat(out.stdout()).as(seen).isEqualTo("ok\n");
    assertThat(out.timed_out()).as(seen).isFalse();
    call("sandbox.delete", new SandboxCapabilities.NameInput(sandbox));
  }

  @Test
  void fourConcurrentSessionsOfCyclesAllSucceedAndLeakNothing() throws Exception {
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    try (ExecutorService sessions = Executors.newFixedThreadPool(SESSIONS)) {
      List<Future<?>> running = new ArrayList<>();
      for (int s = 0; s < SESSIONS; s++) {
        int session = s;
        running.add(
            sessions.submit(
                () -> {
                  for (int c = 0; c < CYCLES; c++) {
                    String name = PREFIX + "-" + session + "-" + c;
                    try {
                      cycle(name);
                    } catch (RuntimeException | AssertionError e) {
                      failures.add(name + ": " + e + causes(e));
                    }
                  }
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    }
    assertThat(failures).as("failed cycles").isEmpty();
    // sandbox.delete returns before its deletion finishes in the background.
    assertThat(runtime.compute().sandboxes().awaitDeletions(IncusInspector.GONE_WITHIN))
        .as("background deletions finished")
        .isTrue();

    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    List<String> leaked = new ArrayList<>();
    for (JsonNode project : incus.query("/1.0/projects?recursion=1")) {
      if (project.path("name").asString().startsWith("ac-" + PREFIX)) {
        leaked.add("project " + project.path("name").asString());
      }
    }
    for (JsonNode network : incus.query("/1.0/networks?recursion=1&all-projects=true")) {
      if (network.path("config").path("user.agentcompute.sandbox").asString().startsWith(PREFIX)) {
        leaked.add("network " + network.path("name").asString());
      }
    }
    for (JsonNode instance : incus.query("/1.0/instances?recursion=1&all-projects=true")) {
      if (instance.path("project").asString().startsWith("ac-" + PREFIX)) {
        leaked.add("instance " + instance.path("name").asString());
      }
    }
    assertThat(leaked).as("leaked Incus objects").isEmpty();
  }

  private static String causes(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      out.append(" <- ").append(c);
    }
    return out.toString();
  }
}
