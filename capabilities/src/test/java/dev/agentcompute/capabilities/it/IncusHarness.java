package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.incus.LocalIncus;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.capabilities.platform.ReaperLease;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Finds the shared incusd and builds a compute runtime configured for tests. */
final class IncusHarness {
  private IncusHarness() {}

  static Path root() {
    return LocalIncus.root();
  }

  static Path socket() {
    return LocalIncus.socket();
  }

  /**
   * Test subnets come from 10.211.0.0/16, never from Incus. Root disks go to the pool {@code
   * -Dagentcompute.it.pool} names (default: {@code default}), to run the ITs on another driver.
   */
  static ComputeConfig config() {
    return ComputeConfig.defaults()
        .withStoragePool(System.getProperty("agentcompute.it.pool", "default"))
        .withCatalogFile(root().resolve("images/catalog.yaml"))
        .withBridgeSubnets(SubnetPool.parse("10.211.0.0/16", 24))
        .withPinIdentities(Set.of("operator"))
        .withReaperInterval(Duration.ofHours(1))
        // ITs of several modules share one identity on one incusd: the per-identity cap is the
        // hostile suite's to test.
        // The same for a sandbox's room: the ITs build bigger sandboxes than the defaults allow.
        // The identity caps likewise: every IT runs as one identity.
        .withQuotas(
            new Quotas(
                4,
                8192,
                128,
                1000,
                1000,
                Duration.ofDays(3),
                32,
                64,
                65536,
                32,
                4096,
                0,
                new IdentityLimits(1000, 1000, 1000, 128 * IdentityLimits.MIB)));
  }

  /**
   * A CodeMode server over the runtime's capabilities with the product's execution limits (10
   * minutes, 1,000 native calls) and every call allowed: what the ITs drive their programs through.
   */
  static dev.agentcompute.codemode.Server codeMode(ComputeRuntime runtime)
      throws dev.agentcompute.codemode.CodeModeException {
    return dev.agentcompute.capabilities.adapter.CodeModeRegistration.register(
            dev.agentcompute.codemode.CodeMode.builder(
                dev.agentcompute.codemode.Options.builder()
                    .authorizer((ctx, request) -> {})
                    .limits(
                        dev.agentcompute.codemode.Limits.unset()
                            .with("MaxExecutionTime", "10m")
                            .with("MaxNativeCalls", "1000"))
                    .build()),
            runtime.capabilities())
        .build();
  }

  static ComputeRuntime start() {
    return ComputeRuntime.startIncus(config(), socket());
  }

  /**
   * A runtime whose clock runs {@code ahead} of the real one, reaper not started (call {@code
   * reaper().scan()}) and alone on the Incus (no lease, so nothing it writes outlives it): a
   * restarted server a few minutes later, without the test waiting for a one-minute TTL to pass.
   */
  static ComputeRuntime startAhead(Duration ahead) {
    IncusPlatform incus = IncusPlatform.overUnixSocket(socket(), config());
    return ComputeRuntime.prepare(
        config(),
        List.of(incus.platform()),
        ReaperLease.ALWAYS,
        Clock.offset(Clock.systemUTC(), ahead),
        incus);
  }

  static String uniqueName(String prefix) {
    return prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
  }

  /** Calls a capability through its typed handler by name. */
  @SuppressWarnings("unchecked")
  static <O> O call(
      List<CapabilityDefinition<?, ?>> capabilities, String subject, String name, Record input) {
    for (CapabilityDefinition<?, ?> c : capabilities) {
      if (c.name().equals(name)) {
        return (O) c.invoke(subject, input);
      }
    }
    throw new IllegalArgumentException("no capability " + name);
  }
}
