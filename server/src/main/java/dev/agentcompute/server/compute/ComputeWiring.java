package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.TtlPolicy;
import dev.agentcompute.server.config.ServerConfig;
import java.util.Set;

/**
 * Maps the server configuration onto the compute capabilities' configuration (they reach Incus
 * through the server's own {@link dev.agentcompute.incus.IncusClient}, Unix socket or HTTPS).
 */
public final class ComputeWiring {
  private ComputeWiring() {}

  public static ComputeConfig computeConfig(ServerConfig config) {
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
        .withOvnUplink(config.incus().ovnUplink().orElse(""))
        .withOvnRanges(config.incus().ovnRanges().orElse(""))
        .withProtectedRanges(config.network().protectedRanges())
        .withReaperInterval(sandbox.reaperInterval())
        .withReaperLease(sandbox.reaperLease())
        .withOwnerVisibility(sandbox.ownerVisibility())
        .withQuotas(sandbox.quotas())
        .withIsolation(sandbox.isolation())
        .withWarmPoolSize(sandbox.warmPoolSize());
  }
}
