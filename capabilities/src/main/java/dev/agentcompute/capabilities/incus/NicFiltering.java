package dev.agentcompute.capabilities.incus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Anti-spoofing on sandbox bridge NICs: Incus's {@code security.mac_filtering} drops frames whose
 * source MAC is not the NIC's own, and {@code security.ipv4_filtering} drops IPv4 and ARP whose
 * source is not the address Incus gave the NIC (its DHCP allocation or the agent's fixed address).
 * IPv4 filtering is left off on a bridge where the NIC can have no known address (no IPv4, or no
 * DHCP and no fixed address): there it would drop all IPv4, and MAC filtering still holds. OVN NICs
 * carry port security of their own.
 */
final class NicFiltering {
  private NicFiltering() {}

  /** The keys to add to a bridge NIC, given its network's config and the NIC's fixed address. */
  static Map<String, String> keys(Map<String, String> networkConfig, String fixedAddress) {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("security.mac_filtering", "true");
    String address = networkConfig.getOrDefault("ipv4.address", "none");
    boolean hasSubnet = !address.isEmpty() && !address.equals("none");
    boolean dhcp = !"false".equals(networkConfig.getOrDefault("ipv4.dhcp", "true"));
    boolean fixed = fixedAddress != null && !fixedAddress.isEmpty();
    if (hasSubnet && (dhcp || fixed)) {
      keys.put("security.ipv4_filtering", "true");
    }
    return keys;
  }
}
