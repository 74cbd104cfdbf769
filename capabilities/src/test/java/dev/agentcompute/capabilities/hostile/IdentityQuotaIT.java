package dev.agentcompute.capabilities.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.capabilities.service.InstanceService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile agent spreads over several sandboxes to take more than its share of the host: the caps
 * per identity ({@code sandbox.identity_limits.*}) count across all of its live sandboxes, hold
 * under concurrent creations in two of them, and leave another identity its room. The runtime's
 * caps are set (small) before the first sandbox exists; instances are created stopped, so nothing
 * runs and each test is bounded.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class IdentityQuotaIT {
  private static final int INSTANCES = 3;
  private static final int NETWORKS = 2;

  private static ComputeRuntime runtime;
  private static Compute compute;
  private static final List<String> sandboxes = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() {
    runtime =
        Hostile.start(
            Hostile.config(Hostile.PROTECTED)
                .withQuotas(
                    Quotas.defaults()
                        .withIdentityLimits(
                            new IdentityLimits(INSTANCES, NETWORKS, 16, 32 * IdentityLimits.MIB))));
    compute = runtime.compute();
  }

  @AfterAll
  static void stop() {
    try {
      for (String s : sandboxes) {
        try {
          compute.sandboxes().delete(s);
        } catch (RuntimeException e) {
          // already gone
        }
      }
    } finally {
      runtime.close();
    }
  }

  private static String sandbox(String owner) {
    String name = Hostile.unique("hxi");
    compute.sandboxes().create(owner, name, null, 30, false);
    sandboxes.add(name);
    return name;
  }

  private static void stopped(String sandbox, String name) {
    compute
        .instances()
        .create(
            sandbox,
            name,
            "busybox",
            new InstanceService.CreateOptions(null, null, null, null, null, null, false));
  }

  private static void network(String sandbox, String name) {
    compute
        .networks()
        .create(sandbox, new NetworkPlan(name, NetworkKind.BRIDGE, "", true, true, true));
  }

  @Test
  void anIdentitysInstancesAreCountedAcrossItsSandboxes() {
    String a = sandbox("erin");
    String b = sandbox("erin");
    stopped(a, "one");
    stopped(a, "two");
    stopped(b, "three");
    assertThatThrownBy(() -> stopped(b, "four"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity \"erin\" already has "
                + INSTANCES
                + " instances (sandbox.identity_limits.instances)");
    // Nothing of the refused creation reached Incus, and another identity still has its room.
    assertThat(compute.instances().list(b)).hasSize(1);
    stopped(sandbox("frank"), "one");
  }

  @Test
  void twoCreationsInTwoSandboxesAtOnceCannotBothTakeTheLastRoom() throws Exception {
    String a = sandbox("gina");
    String b = sandbox("gina");
    stopped(a, "one");
    stopped(a, "two");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Callable<Boolean>> racers =
          List.of(() -> created(a, "three"), () -> created(b, "three"));
      int made = 0;
      for (Future<Boolean> f : pool.invokeAll(racers, 3, TimeUnit.MINUTES)) {
        made += f.get() ? 1 : 0;
      }
      assertThat(made).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(compute.instances().list(a).size() + compute.instances().list(b).size())
        .isEqualTo(INSTANCES);
  }

  private static boolean created(String sandbox, String name) {
    try {
      stopped(sandbox, name);
      return true;
    } catch (AgentFacingException e) {
      assertThat(e).hasMessageContaining("(sandbox.identity_limits.instances)");
      return false;
    }
  }

  @Test
  void anIdentitysNetworksAreCountedAcrossItsSandboxes() {
    String a = sandbox("hank");
    String b = sandbox("hank");
    network(a, "n1");
    network(b, "n2");
    assertThatThrownBy(() -> network(b, "n3"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity \"hank\" already has "
                + NETWORKS
                + " networks (sandbox.identity_limits.networks)");
    assertThat(compute.networks().list(b))
        .extracting(n -> n.name())
        .containsExactlyInAnyOrder("default", "n2");
    network(sandbox("ivy"), "n1");
  }
}
