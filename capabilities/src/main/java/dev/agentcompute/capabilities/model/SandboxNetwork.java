package dev.agentcompute.capabilities.model;

/**
 * A sandbox network by its logical name; physical names are never exposed.
 *
 * @param cidr Incus {@code ipv4.address} ({@code 10.210.3.1/24}, or {@code none})
 * @param gateway address part of {@code cidr}, empty when it has none
 */
public record SandboxNetwork(String name, String kind, String cidr, String gateway) {
  /** Builds the agent view of an {@code ipv4.address} value. */
  public static SandboxNetwork of(String name, String kind, String cidr) {
    String value = cidr == null ? "" : cidr;
    String gateway =
        value.isEmpty() || value.equals("auto") || value.equals("none") || value.indexOf('/') < 0
            ? ""
            : value.substring(0, value.indexOf('/'));
    return new SandboxNetwork(name, kind, value, gateway);
  }
}
