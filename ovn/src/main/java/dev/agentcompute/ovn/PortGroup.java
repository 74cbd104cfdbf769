package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Set;

/** OVN_Northbound {@code Port_Group} (Incus keeps one per network ACL). */
public record PortGroup(
    Uuid uuid, String name, Set<Uuid> ports, Set<Uuid> acls, Map<String, String> externalIds)
    implements NbRecord {
  static PortGroup from(Row row) {
    return new PortGroup(
        row.uuid(),
        row.string("name"),
        row.set("ports", Uuid.class),
        row.set("acls", Uuid.class),
        row.stringMap("external_ids"));
  }
}
