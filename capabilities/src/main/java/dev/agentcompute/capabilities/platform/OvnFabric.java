package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import java.util.Optional;

/**
 * What only OVN networks offer (docs/reference/capabilities.md#networks); the service calls it for
 * OVN sandboxes.
 */
public interface OvnFabric {
  /** Peers two OVN networks in both directions; an existing identical peering is kept. */
  void peer(Sandbox sandbox, String network, String peer);

  /** Appends a rule to the network's agent ACL; returns its id ({@code r-<16 hex>}). */
  String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule);

  /** Removes an agent ACL rule by id (both directions). */
  void removeAclRule(Sandbox sandbox, String network, String rule);

  /** Forwards {@code listenPort/protocol} of an address of the OVN range to the instance. */
  PortForward forward(
      Sandbox sandbox,
      String network,
      String instance,
      int port,
      int listenPort,
      ForwardProtocol protocol);

  /** The ACL rows and logical ports in effect, read from the OVN northbound database. */
  NetworkInspection inspect(Sandbox sandbox, String network);

  /**
   * An existing TCP forward to {@code port} of one of the instance's addresses, as {@code
   * address:listenPort} (desktop.info's VNC endpoint); empty when there is none.
   */
  default Optional<String> forwardTo(Sandbox sandbox, SandboxInstance instance, int port) {
    return Optional.empty();
  }

  /** Forwarded ports of all of the sandbox's OVN networks (its share of the forward range). */
  default int forwardedPorts(Sandbox sandbox) {
    return 0;
  }
}
