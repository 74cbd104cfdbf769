package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.capabilities.service.SandboxService;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * sandbox.delete off the agent's path on the real incusd (docs/reference/sandbox-pool.md): the call
 * returns with the sandbox gone for agents and its instances stopped, the rest finishes in the
 * background, a server that stopped half-way is finished by a later reaper, and the name is free
 * only once the old sandbox is gone.
 */
class BackgroundDeleteIT {
  private static final String AGENT = "operator";

  private static <O> O call(ComputeRuntime runtime, String name, Record input) {
    List<CapabilityDefinition<?, ?>> caps = runtime.capabilities();
    return IncusHarness.call(caps, AGENT, name, input);
  }

  private static void create(ComputeRuntime runtime, String name) {
    call(
        runtime,
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(name), Optional.empty(), OptionalLong.of(30), Optional.empty()));
  }

  private static void createInstance(ComputeRuntime runtime, String sandbox) {
    call(runtime, "instance.create", InstanceCapabilities.CreateInput.of(sandbox, "c", "busybox"));
  }

  private static void assertGoneForAgents(ComputeRuntime runtime, String name) {
    assertThatThrownBy(() -> call(runtime, "sandbox.get", new SandboxCapabilities.NameInput(name)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("sandbox \"" + name + "\" not found");
    SandboxCapabilities.ListOutput list =
        call(runtime, "sandbox.list", new SandboxCapabilities.ListInput());
    assertThat(list.items()).noneMatch(item -> item.name().equals(name));
  }

  /** The instance {@code c}'s status once it is Stopped, or when {@code limit} has passed. */
  private static String statusWithin(String sandbox, Duration limit) {
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    long deadline = System.nanoTime() + limit.toNanos();
    String status;
    do {
      status = incus.query("/1.0/instances/c?project=ac-" + sandbox).path("status").asString();
      if (status.equals("Stopped")) {
        return status;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return status;
      }
    } while (System.nanoTime() < deadline);
    return status;
  }

  @Test
  void deleteReturnsWithTheSandboxGoneForAgentsAndFinishesInTheBackground() {
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    String name = IncusHarness.uniqueName("itdel");
    try (ComputeRuntime runtime = IncusHarness.start()) {
      create(runtime, name);
      createInstance(runtime, name);

      call(runtime, "sandbox.delete", new SandboxCapabilities.NameInput(name));

      assertGoneForAgents(runtime, name);
      incus.awaitGone(name);
      assertThat(incus.projectExists("ac-" + name)).isFalse();
      assertThat(incus.networksTaggedWith(name)).isEmpty();
      // The name is free again once the old sandbox is gone.
      create(runtime, name);
      call(runtime, "sandbox.delete", new SandboxCapabilities.NameInput(name));
    }
    incus.awaitGone(name);
    assertThat(incus.projectExists("ac-" + name)).isFalse();
  }

  @Test
  void aDeletionAServerLeftHalfWayHoldsItsNameUntilALaterReaperFinishesIt() {
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    String name = IncusHarness.uniqueName("itdel");
    try (ComputeRuntime crashed = IncusHarness.start()) {
      create(crashed, name);
      createInstance(crashed, name);
      // The first half of sandbox.delete, and then the server stops: nothing finishes it.
      SandboxStore store = crashed.compute().router().platform("incus").orElseThrow().sandboxes();
      assertThat(store.retire(name)).isTrue();
    }
    // The stop was asked of Incus, which finishes it without the server.
    assertThat(statusWithin(name, Duration.ofSeconds(30))).isEqualTo("Stopped");
    assertThat(incus.projectExists("ac-" + name)).isTrue();

    try (ComputeRuntime restarted = IncusHarness.start()) {
      assertGoneForAgents(restarted, name);
      assertThatThrownBy(() -> create(restarted, name))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage(
              "sandbox \""
                  + name
                  + "\" is still being deleted and its name is not free yet; use another name, or"
                  + " try again in a few seconds");
      // Within its grace period the half-deleted sandbox may still be finishing elsewhere.
      restarted.reaper().scan();
      assertThat(incus.projectExists("ac-" + name)).isTrue();
    }

    try (ComputeRuntime later =
        IncusHarness.startAhead(SandboxService.DELETION_GRACE.plus(Duration.ofMinutes(1)))) {
      later.reaper().scan();
      assertThat(incus.projectExists("ac-" + name)).isFalse();
      assertThat(incus.networksTaggedWith(name)).isEmpty();
      assertThat(incus.instances("ac-" + name)).isEmpty();
    }
  }
}
