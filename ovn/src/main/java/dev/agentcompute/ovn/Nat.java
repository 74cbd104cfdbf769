package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Optional;

/** OVN_Northbound {@code NAT}: {@code type} is snat, dnat or dnat_and_snat. */
public record Nat(
    Uuid uuid,
    String type,
    String externalIp,
    Optional<String> externalMac,
    String externalPortRange,
    String logicalIp,
    Optional<String> logicalPort,
    Map<String, String> options,
    Map<String, String> externalIds)
    implements NbRecord {
  static Nat from(Row row) {
    return new Nat(
        row.uuid(),
        row.string("type"),
        row.string("external_ip"),
        row.optional("external_mac", String.class),
        row.string("external_port_range"),
        row.string("logical_ip"),
        row.optional("logical_port", String.class),
        row.stringMap("options"),
        row.stringMap("external_ids"));
  }
}
