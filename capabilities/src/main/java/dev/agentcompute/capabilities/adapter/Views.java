package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import java.util.List;
import java.util.Map;

/** Output shapes shared by several capabilities (docs/reference/capabilities.md#shared-outputs). */
public final class Views {
  private Views() {}

  /** {@code {name, kind, cidr, gateway}}; physical names never appear. */
  public record NetworkView(String name, String kind, String cidr, String gateway) {
    public static NetworkView of(SandboxNetwork network) {
      return new NetworkView(network.name(), network.kind(), network.cidr(), network.gateway());
    }

    public static NetworkView empty() {
      return new NetworkView("", "", "", "");
    }
  }

  /** An instance list item. */
  public record InstanceItem(
      String name, String kind, String image, String status, Map<String, List<String>> addresses) {
    public static InstanceItem of(SandboxInstance instance) {
      return new InstanceItem(
          instance.name(),
          instance.kind(),
          instance.image(),
          instance.status(),
          instance.addresses());
    }
  }

  /** A NIC. */
  public record NicView(String name, String network, String mac, List<String> addresses) {
    public static NicView of(SandboxInstance.Nic nic) {
      return new NicView(nic.name(), nic.network(), nic.mac(), nic.addresses());
    }
  }

  /** The empty output {@code {}}. */
  public record Empty() {}
}
