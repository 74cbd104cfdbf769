package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.NicSettings;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import java.util.List;
import java.util.Optional;

/** Sandbox networks (bridge or OVN, by the sandbox's fabric) and the NICs on them. */
public interface NetworkDriver {
  List<SandboxNetwork> list(Sandbox sandbox);

  SandboxNetwork create(Sandbox sandbox, NetworkPlan plan);

  void delete(Sandbox sandbox, String name);

  /** Adds a NIC; returns its name and MAC. */
  SandboxInstance.Nic attach(
      Sandbox sandbox, String instance, String network, String nic, String ip, String mac);

  void detach(Sandbox sandbox, String instance, String nic);

  /** The MTU and NAT of a sandbox network; empty where the platform cannot tell. */
  default Optional<NicSettings> settings(Sandbox sandbox, String network) {
    return Optional.empty();
  }
}
