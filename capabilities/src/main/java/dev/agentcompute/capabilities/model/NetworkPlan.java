package dev.agentcompute.capabilities.model;

/** A network to create: logical name, fabric, optional explicit CIDR, and its services. */
public record NetworkPlan(
    String name, NetworkKind kind, String cidr, boolean dhcp, boolean nat, boolean dns) {

  /**
   * A bridge sandbox's own network {@code default}: a block of the subnet pool with DHCP, NAT and
   * DNS.
   */
  public static NetworkPlan sandboxDefault() {
    return new NetworkPlan("default", NetworkKind.BRIDGE, null, true, true, true);
  }
}
