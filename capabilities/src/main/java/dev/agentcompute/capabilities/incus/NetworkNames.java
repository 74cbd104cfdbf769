package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Logical network names (what agents say) against Incus network names: an OVN network has its own
 * name in the sandbox project; a bridge has an opaque {@code ac<8 hex>} name in the default
 * project, reserved in the sandbox's config and tagged on the bridge itself.
 */
final class NetworkNames {
  private final SandboxProjects projects;
  private final OvnNetworks ovn;

  NetworkNames(SandboxProjects projects, OvnNetworks ovn) {
    this.projects = projects;
    this.ovn = ovn;
  }

  /**
   * The Incus name of a sandbox network. A bridge's comes from the reservations read with the
   * sandbox when it was (callers that act on a network read the sandbox under its gate, where
   * reservations change), else from one read of the project.
   */
  Optional<String> physical(Sandbox sandbox, String logical) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      return ovn.get(sandbox.name(), logical).map(dev.agentcompute.incus.Network::name);
    }
    return Optional.ofNullable(reservations(sandbox).get(logical));
  }

  private Map<String, String> reservations(Sandbox sandbox) {
    return sandbox
        .stored()
        .filter(SandboxProjects.Reservations.class::isInstance)
        .map(stored -> ((SandboxProjects.Reservations) stored).byLogical())
        .orElseGet(() -> projects.reservations(sandbox.name()));
  }

  /**
   * Physical bridge name to logical name for this sandbox (OVN names are their own). The
   * reservations in the sandbox's project are authoritative (every bridge is reserved before it is
   * created): those read with the sandbox are used, so reading its instances does not read the
   * project again; a sandbox not read from its project costs one request.
   */
  Map<String, String> logicalByPhysical(Sandbox sandbox) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      return Map.of();
    }
    Map<String, String> reserved = reservations(sandbox);
    Map<String, String> result = new LinkedHashMap<>();
    reserved.forEach((logical, physical) -> result.put(physical, logical));
    return result;
  }
}
