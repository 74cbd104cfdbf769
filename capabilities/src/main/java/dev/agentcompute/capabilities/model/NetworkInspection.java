package dev.agentcompute.capabilities.model;

import java.util.List;

/**
 * What the northbound database says is in effect for one sandbox network.
 *
 * @param rules ACL rows of the network's ACLs, highest OVN priority first
 * @param ports the network's logical switch ports
 */
public record NetworkInspection(
    String network, String logicalSwitch, List<Rule> rules, List<Port> ports) {
  public NetworkInspection {
    rules = List.copyOf(rules);
    ports = List.copyOf(ports);
  }

  /**
   * One OVN ACL row.
   *
   * @param acl {@code baseline} or {@code agent}
   * @param id the agent-facing rule id ({@code baseline-egress-mgmt}, {@code r-<16 hex>}), empty
   *     when the row is Incus' own (the default drop of an ACL's port group)
   * @param direction OVN direction ({@code from-lport}, {@code to-lport})
   */
  public record Rule(
      String acl, String id, long priority, String direction, String action, String match) {}

  /**
   * A logical switch port: its name, type ({@code ""} for instance NICs, {@code router}) and
   * addresses.
   */
  public record Port(String name, String type, List<String> addresses) {
    public Port {
      addresses = List.copyOf(addresses);
    }
  }
}
