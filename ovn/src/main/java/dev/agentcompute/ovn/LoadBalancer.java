package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OVN_Northbound {@code Load_Balancer} (Incus network forwards and load balancers): {@code vips}
 * maps {@code "ip:port"} to {@code "backend:port,..."}.
 */
public record LoadBalancer(
    Uuid uuid,
    String name,
    Map<String, String> vips,
    Optional<String> protocol,
    Set<String> selectionFields,
    Map<String, String> options,
    Map<String, String> externalIds)
    implements NbRecord {
  static LoadBalancer from(Row row) {
    return new LoadBalancer(
        row.uuid(),
        row.string("name"),
        row.stringMap("vips"),
        row.optional("protocol", String.class),
        row.set("selection_fields", String.class),
        row.stringMap("options"),
        row.stringMap("external_ids"));
  }
}
