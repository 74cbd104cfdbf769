package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Set;

/** OVN_Northbound {@code Logical_Switch}. */
public record LogicalSwitch(
    Uuid uuid,
    String name,
    Set<Uuid> ports,
    Set<Uuid> acls,
    Set<Uuid> loadBalancers,
    Map<String, String> otherConfig,
    Map<String, String> externalIds)
    implements NbRecord {
  static LogicalSwitch from(Row row) {
    return new LogicalSwitch(
        row.uuid(),
        row.string("name"),
        row.set("ports", Uuid.class),
        row.set("acls", Uuid.class),
        row.set("load_balancer", Uuid.class),
        row.stringMap("other_config"),
        row.stringMap("external_ids"));
  }
}
