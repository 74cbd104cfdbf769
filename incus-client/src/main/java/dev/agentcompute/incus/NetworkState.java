package dev.agentcompute.incus;

/**
 * What {@code GET /1.0/networks/<name>/state} reports; {@code ovn} is set for OVN networks only and
 * names the northbound objects Incus built for the network.
 */
public record NetworkState(String state, String hwaddr, Long mtu, String type, Ovn ovn) {

  /**
   * The OVN side of a network: its logical router and internal logical switch, and its uplink
   * address.
   */
  public record Ovn(
      String chassis,
      String logicalRouter,
      String logicalSwitch,
      String uplinkIpv4,
      String uplinkIpv6) {}
}
