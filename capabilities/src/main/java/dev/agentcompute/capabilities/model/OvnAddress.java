package dev.agentcompute.capabilities.model;

import java.util.Optional;

/** The router address rule of OVN networks (docs/reference/capabilities.md#netcreate). */
public final class OvnAddress {
  private OvnAddress() {}

  /**
   * The OVN router's {@code ipv4.address} for an agent's {@code cidr}: the first host when the
   * network address is given ({@code 192.168.50.0/24} → {@code 192.168.50.1/24}), else the given
   * host address. Empty for text that is no CIDR and for prefixes without hosts (/0, /32).
   */
  public static Optional<Ipv4Cidr> routerAddress(String cidr) {
    Optional<Ipv4Cidr> parsed = Ipv4Cidr.parse(cidr);
    if (parsed.isEmpty() || parsed.get().prefix() == 0 || parsed.get().prefix() == 32) {
      return Optional.empty();
    }
    Ipv4Cidr value = parsed.get();
    return Optional.of(value.equals(value.network()) ? value.host(1) : value);
  }
}
