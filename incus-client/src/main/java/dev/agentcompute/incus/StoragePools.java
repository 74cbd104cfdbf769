package dev.agentcompute.incus;

import java.util.List;
import tools.jackson.core.type.TypeReference;

/**
 * {@code /1.0/storage-pools}: read-only here (pools are set up with the daemon, not by
 * agentcompute).
 */
public final class StoragePools {

  private final Rest rest;
  private final Scope scope;

  StoragePools(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public List<StoragePool> list() {
    return rest.get(
        scope, "/1.0/storage-pools?recursion=1", new TypeReference<List<StoragePool>>() {});
  }

  public StoragePool get(String name) {
    return rest.get(scope, "/1.0/storage-pools/" + Scope.segment(name), StoragePool.class);
  }
}
