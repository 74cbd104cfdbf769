package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OVN_Northbound {@code Logical_Switch_Port}; {@code addresses} like {@code "00:16:3e:..
 * 10.0.0.5"}.
 */
public record LogicalSwitchPort(
    Uuid uuid,
    String name,
    String type,
    Set<String> addresses,
    Optional<String> dynamicAddresses,
    Set<String> portSecurity,
    Optional<Boolean> up,
    Optional<Boolean> enabled,
    Map<String, String> options,
    Map<String, String> externalIds)
    implements NbRecord {
  static LogicalSwitchPort from(Row row) {
    return new LogicalSwitchPort(
        row.uuid(),
        row.string("name"),
        row.string("type"),
        row.set("addresses", String.class),
        row.optional("dynamic_addresses", String.class),
        row.set("port_security", String.class),
        row.optional("up", Boolean.class),
        row.optional("enabled", Boolean.class),
        row.stringMap("options"),
        row.stringMap("external_ids"));
  }
}
