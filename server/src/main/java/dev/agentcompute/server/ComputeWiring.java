package dev.agentcompute.server;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.sandbox.TtlPolicy;
import java.util.Set;

/**
 * Maps the server configuration onto the compute capabilities' configuration (they reach Incus
 * through the server's own {@link dev.agentcompute.incus.IncusClient}, Unix socket or HTTPS).
 * What the file cannot set (the reaper interval) keeps the capabilities module's default.
 */
final class ComputeWiring {
  private ComputeWiring() {}

  static ComputeConfig computeConfig(ServerConfig config) {
    ComputeConfig defaults = ComputeConfig.defaults();
    ServerConfig.Sandbox sandbox = config.sandbox();
    return defaults
        .withTtl(new TtlPolicy(sandbox.defaultTtl(), sandbox.maxTtl()))
        .withPinIdentities(Set.copyOf(sandbox.pinIdentities()))
        .withDefaultNetworkKind(NetworkKind.parse(sandbox.defaultNetworkKind()).orElseThrow())
        .withMember(config.incus().host().orElse(defaults.member()))
        .withStoragePool(config.incus().pool())
        .withImageProject(config.incus().imageProject())
        .withCatalogFile(config.imagesFile())
        .withBridgeSubnets(config.network().bridgeSubnets())
        .withOvnUplink(config.incus().ovnUplink())
        .withOvnRanges(config.incus().ovnRanges())
        .withProtectedRanges(config.network().protectedRanges());
  }
}
