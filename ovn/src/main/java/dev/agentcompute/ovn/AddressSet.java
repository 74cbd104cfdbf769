package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Set;

/** OVN_Northbound {@code Address_Set}. */
public record AddressSet(
    Uuid uuid, String name, Set<String> addresses, Map<String, String> externalIds)
    implements NbRecord {
  static AddressSet from(Row row) {
    return new AddressSet(
        row.uuid(),
        row.string("name"),
        row.set("addresses", String.class),
        row.stringMap("external_ids"));
  }
}
