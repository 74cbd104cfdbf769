package dev.agentcompute.server;

import dev.agentcompute.capabilities.compute.incus.IncusBackend;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.ovn.OvnNorthbound;
import java.util.Optional;

/**
 * The connections every compute generation shares: the Incus client and, when
 * {@code incus.ovn_northbound} is configured, the OVN northbound database. Both are opened once
 * at startup and closed by {@link ServerRuntime} after the generations.
 */
record Backends(IncusClient incus, Optional<OvnNorthbound> northbound) {

  IncusBackend backend(ComputeConfig config) {
    return northbound.map(nb -> IncusBackend.over(incus, config, nb))
        .orElseGet(() -> IncusBackend.over(incus, config));
  }
}
