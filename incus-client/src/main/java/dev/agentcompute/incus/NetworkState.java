package dev.agentcompute.incus;

import java.util.List;

/**
 * What {@code GET /1.0/networks/<name>/state} reports; {@code ovn} is set for OVN networks only and
 * names the northbound objects Incus built for the network. {@code addresses} are the interface's
 * addresses on the host (what the bridge baseline keeps sandboxes from reaching).
 */
public record NetworkState(
    String state, String hwaddr, Long mtu, String type, Ovn ovn, List<Address> addresses) {

  public NetworkState {
    addresses = addresses == null ? List.of() : List.copyOf(addresses);
  }

  /**
   * One address of the interface: {@code family} inet or inet6, {@code netmask} a prefix length.
   */
  public record Address(String family, String address, String netmask, String scope) {}

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
