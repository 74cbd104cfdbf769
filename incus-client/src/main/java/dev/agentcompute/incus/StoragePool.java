package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A storage pool ({@code /1.0/storage-pools/{name}}). */
public record StoragePool(
    String name,
    String description,
    String driver,
    String status,
    Map<String, String> config,
    List<String> usedBy,
    List<String> locations) {

  public StoragePool {
    config = config == null ? Map.of() : config;
    usedBy = usedBy == null ? List.of() : usedBy;
    locations = locations == null ? List.of() : locations;
  }
}
