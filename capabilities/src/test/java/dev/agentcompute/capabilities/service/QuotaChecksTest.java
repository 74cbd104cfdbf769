package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaChecksTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private final QuotaChecks checks = new QuotaChecks(Quotas.defaults());

  private static Sandbox sandbox(String name, String owner, Instant expires) {
    return new Sandbox(
        name, "incus", NOW, expires, owner, false, "", null, NetworkKind.BRIDGE, "none");
  }

  private static SandboxInstance instance(int cpus, int memoryMb) {
    return new SandboxInstance(
        "i",
        "container",
        "busybox",
        "Running",
        cpus,
        memoryMb,
        List.of(),
        false,
        List.of(),
        Map.of(),
        "",
        "",
        "");
  }

  @Test
  void everyRefusalNamesItsLimitAndValue() {
    assertThatThrownBy(() -> checks.instanceSize(256, 128, 1))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("cpus 256 exceeds the maximum of 4 (instance.max_cpus)");
    assertThatThrownBy(() -> checks.instanceSize(1, 1_048_576, 1))
        .hasMessage("memory_mb 1048576 exceeds the maximum of 8192 (instance.max_memory_mb)");
    assertThatThrownBy(() -> checks.instanceSize(1, 128, 129))
        .hasMessage("disk_gb 129 exceeds the maximum of 128 (instance.max_disk_gb)");
    assertThatCode(() -> checks.instanceSize(4, 8192, 128)).doesNotThrowAnyException();

    assertThatThrownBy(
            () -> checks.sandboxRoom("s", Collections.nCopies(8, instance(1, 128)), 1, 128))
        .hasMessage("sandbox \"s\" already has 8 instances (sandbox.limits.instances)");
    assertThatThrownBy(() -> checks.sandboxRoom("s", List.of(instance(4, 128)), 4 + 1, 128))
        .hasMessage("sandbox \"s\" would use 9 CPUs, more than its 8 (sandbox.limits.cpus)");
    assertThatThrownBy(() -> checks.sandboxRoom("s", List.of(instance(1, 16000)), 1, 512))
        .hasMessage(
            "sandbox \"s\" would use 16512 MiB of memory, more than its 16384"
                + " (sandbox.limits.memory_mb)");
    assertThatThrownBy(() -> checks.networkRoom("s", 4))
        .hasMessage("sandbox \"s\" already has 4 networks (sandbox.limits.networks)");
  }

  @Test
  void onlyLiveSandboxesOfTheSameIdentityCount() {
    List<Sandbox> all =
        new java.util.ArrayList<>(
            Collections.nCopies(9, sandbox("b", "bob", NOW.plus(Duration.ofHours(1)))));
    all.add(sandbox("old", "bob", NOW.minusSeconds(1))); // expired
    all.add(sandbox("a", "alice", NOW.plus(Duration.ofHours(1))));
    assertThatCode(() -> checks.sandboxesOf("bob", all, NOW)).doesNotThrowAnyException();
    all.add(sandbox("b10", "bob", NOW.plus(Duration.ofHours(1))));
    assertThatThrownBy(() -> checks.sandboxesOf("bob", all, NOW))
        .hasMessage("identity \"bob\" already has 10 live sandboxes (sandbox.max_per_identity)");
  }

  @Test
  void extensionsStopAtTheMaximumLifetime() {
    Sandbox s = sandbox("s", "bob", NOW.plus(Duration.ofHours(1)));
    assertThatCode(() -> checks.lifetime(s, NOW.plus(Duration.ofDays(3))))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> checks.lifetime(s, NOW.plus(Duration.ofDays(3)).plusSeconds(1)))
        .hasMessage(
            "sandbox \"s\" cannot live past 4320 minutes from its creation"
                + " (sandbox.max_lifetime_minutes)");
  }

  @Test
  void eachRefusalIsCountedOnceByItsKey() {
    List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
    QuotaRefusals.listen(keys::add);
    try {
      assertThatThrownBy(() -> checks.instanceSize(256, 128, 1));
      assertThatThrownBy(
          () -> checks.sandboxRoom("s", Collections.nCopies(8, instance(1, 128)), 1, 128));
      assertThatThrownBy(() -> checks.networkRoom("s", 100));
      assertThatCode(() -> checks.instanceSize(1, 128, 1)).doesNotThrowAnyException();
      assertThat(keys)
          .containsExactly(
              "instance.max_cpus", "sandbox.limits.instances", "sandbox.limits.networks");
    } finally {
      QuotaRefusals.listen(null);
    }
  }

  @Test
  void identityCapsNameTheIdentityTheLimitAndItsKey() {
    assertThatCode(() -> checks.identityInstances("bob", 15)).doesNotThrowAnyException();
    assertThatThrownBy(() -> checks.identityInstances("bob", 16))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity \"bob\" already has 16 instances (sandbox.identity_limits.instances)");
    assertThatCode(() -> checks.identityNetworks("bob", 15)).doesNotThrowAnyException();
    assertThatThrownBy(() -> checks.identityNetworks("bob", 16))
        .hasMessage("identity \"bob\" already has 16 networks (sandbox.identity_limits.networks)");
    assertThatCode(() -> checks.identityForwards("bob", 15)).doesNotThrowAnyException();
    assertThatThrownBy(() -> checks.identityForwards("bob", 16))
        .hasMessage("identity \"bob\" already has 16 forwards (sandbox.identity_limits.forwards)");
  }

  @Test
  void aVmIsRefusedNamingTheProjectProcessLimitOnlyWhenOneIsSet() {
    assertThatCode(() -> checks.kindUnderProjectLimits("vm")).doesNotThrowAnyException();
    QuotaChecks limited = new QuotaChecks(Quotas.defaults().withSandboxProcesses(2000));
    assertThatCode(() -> limited.kindUnderProjectLimits("container")).doesNotThrowAnyException();
    assertThatThrownBy(() -> limited.kindUnderProjectLimits("vm"))
        .hasMessageStartingWith(
            "kind \"vm\" cannot run in a sandbox with a process limit of 2000"
                + " (sandbox.limits.processes)");
  }
}
