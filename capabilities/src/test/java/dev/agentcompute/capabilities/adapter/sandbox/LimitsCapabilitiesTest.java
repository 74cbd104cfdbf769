package dev.agentcompute.capabilities.adapter.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.sandbox.LimitsCapabilities.LimitsOutput;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.ProcessLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.model.TtlPolicy;
import dev.agentcompute.capabilities.service.SandboxService;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** sandbox.limits reports the configured values, not the defaults, and the caller's usage. */
class LimitsCapabilitiesTest {
  @Test
  void everyConfiguredValueAndTheUsageAreReported() {
    ComputeConfig config =
        ComputeConfig.defaults()
            .withTtl(new TtlPolicy(Duration.ofMinutes(45), Duration.ofMinutes(300)))
            .withQuotas(
                new Quotas(
                    3,
                    3000,
                    30,
                    300,
                    7,
                    Duration.ofHours(9),
                    5,
                    6,
                    6000,
                    2,
                    60,
                    500,
                    new IdentityLimits(11, 12, 13, 14 * IdentityLimits.MIB),
                    new ProcessLimits(4, 2)));
    TransferLimits files =
        new TransferLimits(1 << 20, Duration.ofSeconds(90), 5, Duration.ofMinutes(10));

    LimitsOutput out =
        LimitsCapabilities.of("alice", config, files, new SandboxService.Usage(2, 9));

    assertThat(out.caller()).isEqualTo("alice");
    assertThat(out.ttl()).isEqualTo(new LimitsCapabilities.Ttl(45, 300, 540));
    assertThat(out.sandboxes()).isEqualTo(new LimitsCapabilities.Sandboxes(7, 2));
    assertThat(out.per_identity()).isEqualTo(new LimitsCapabilities.PerIdentity(11, 9, 12, 13, 14));
    assertThat(out.per_sandbox())
        .isEqualTo(new LimitsCapabilities.PerSandbox(5, 6, 6000, 2, 60, 500));
    assertThat(out.per_instance()).isEqualTo(new LimitsCapabilities.PerInstance(3, 3000, 30, 300));
    assertThat(out.background()).isEqualTo(new LimitsCapabilities.Background(4, 2));
    assertThat(out.files())
        .isEqualTo(new LimitsCapabilities.Files(1 << 20, 1_048_576, 65_536, 5, 90));
  }
}
