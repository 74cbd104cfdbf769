package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** OVN_Northbound {@code Logical_Router}. */
public record LogicalRouter(
    Uuid uuid,
    String name,
    Set<Uuid> ports,
    Set<Uuid> staticRoutes,
    Set<Uuid> policies,
    Set<Uuid> nat,
    Set<Uuid> loadBalancers,
    Optional<Boolean> enabled,
    Map<String, String> options,
    Map<String, String> externalIds)
    implements NbRecord {
  static LogicalRouter from(Row row) {
    return new LogicalRouter(
        row.uuid(),
        row.string("name"),
        row.set("ports", Uuid.class),
        row.set("static_routes", Uuid.class),
        row.set("policies", Uuid.class),
        row.set("nat", Uuid.class),
        row.set("load_balancer", Uuid.class),
        row.optional("enabled", Boolean.class),
        row.stringMap("options"),
        row.stringMap("external_ids"));
  }
}
