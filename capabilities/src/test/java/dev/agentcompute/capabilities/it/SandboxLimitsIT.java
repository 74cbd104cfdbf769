package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.LimitsCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.LimitsCapabilities.LimitsOutput;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.model.TtlPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sandbox.limits on the real incusd: a server configured with a TTL other than the defaults states
 * it (in the output and in sandbox.create's description), and the caller's usage follows its own
 * sandboxes and instances, not another identity's.
 */
class SandboxLimitsIT {
  @RegisterExtension final RuntimeFixture it = RuntimeFixture.perTest();

  @Test
  void theConfiguredLimitsAndTheCallersUsageAreReported() {
    it.start(
        IncusHarness.config()
            .withTtl(new TtlPolicy(Duration.ofMinutes(45), Duration.ofMinutes(300))));
    List<CapabilityDefinition<?, ?>> caps = it.capabilities();
    // Identities of their own: ITs of other runs share the incusd and the "operator" identity.
    String caller = IncusHarness.uniqueName("limits");
    String other = IncusHarness.uniqueName("other");

    LimitsOutput before =
        IncusHarness.call(caps, caller, "sandbox.limits", new LimitsCapabilities.LimitsInput());
    assertThat(before.caller()).isEqualTo(caller);
    assertThat(before.ttl()).isEqualTo(new LimitsCapabilities.Ttl(45, 300, 3 * 24 * 60));
    assertThat(before.sandboxes().max()).isEqualTo(1000);
    assertThat(before.sandboxes().used()).isZero();
    assertThat(before.per_identity().instances_used()).isZero();
    assertThat(before.per_sandbox().instances()).isEqualTo(32);
    assertThat(
            caps.stream()
                .filter(d -> d.name().equals("sandbox.create"))
                .findFirst()
                .orElseThrow()
                .description())
        .contains("45 minutes on this server", "300 minutes on this server");

    String sandbox = it.created(IncusHarness.uniqueName("itlim"));
    IncusHarness.call(
        caps,
        caller,
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(sandbox), Optional.empty(), OptionalLong.empty(), Optional.empty()));
    IncusHarness.call(
        caps,
        caller,
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sandbox,
            "c1",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of(false)));

    LimitsOutput after =
        IncusHarness.call(caps, caller, "sandbox.limits", new LimitsCapabilities.LimitsInput());
    assertThat(after.sandboxes().used()).isEqualTo(1);
    assertThat(after.per_identity().instances_used()).isEqualTo(1);
    LimitsOutput others =
        IncusHarness.call(caps, other, "sandbox.limits", new LimitsCapabilities.LimitsInput());
    assertThat(others.sandboxes().used()).isZero();
    assertThat(others.per_identity().instances_used()).isZero();
  }
}
