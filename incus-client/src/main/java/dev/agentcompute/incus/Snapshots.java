package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/instances/{name}/snapshots} in the client's project. */
public final class Snapshots {

  private final Rest rest;
  private final Scope scope;

  Snapshots(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public void create(String instance, String snapshot) {
    rest.async(scope, "POST", base(instance), Map.of("name", snapshot, "stateful", false), null)
        .await();
  }

  public List<Snapshot> list(String instance) {
    return rest.get(scope, base(instance) + "?recursion=1", new TypeReference<List<Snapshot>>() {});
  }

  public Snapshot get(String instance, String snapshot) {
    return rest.get(scope, base(instance) + "/" + Scope.segment(snapshot), Snapshot.class);
  }

  public void delete(String instance, String snapshot) {
    rest.async(scope, "DELETE", base(instance) + "/" + Scope.segment(snapshot), null, null).await();
  }

  private static String base(String instance) {
    return Instances.path(instance) + "/snapshots";
  }
}
