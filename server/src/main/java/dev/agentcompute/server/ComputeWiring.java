package dev.agentcompute.server;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.sandbox.TtlPolicy;
import java.util.Set;

/**
 * Maps the server configuration onto the compute capabilities' configuration (they reach Incus
 * through the server's own {@link dev.agentcompute.incus.IncusClient}, Unix socket or HTTPS).
 * Values the file does not set (subnet pool, protected ranges, reaper interval, image project)
 * keep the capabilities module's defaults.
 */
final class ComputeWiring {
  private ComputeWiring() {}

  static ComputeConfig computeConfig(ServerConfig config) {
    ComputeConfig defaults = ComputeConfig.defaults();
    ServerConfig.Sandbox sandbox = config.sandbox();
    return new ComputeConfig(
        new TtlPolicy(sandbox.defaultTtl(), sandbox.maxTtl()),
        Set.copyOf(sandbox.pinIdentities()),
        NetworkKind.parse(sandbox.defaultNetworkKind()).orElseThrow(),
        config.incus().host().orElse(defaults.member()),
        config.incus().pool(),
        defaults.imageProject(),
        config.imagesFile(),
        defaults.bridgeSubnets(),
        config.incus().ovnUplink(),
        config.incus().ovnRanges(),
        defaults.protectedRanges(),
        defaults.reaperInterval());
  }
}
