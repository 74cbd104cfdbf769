package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A network. Unmanaged host interfaces are listed too, with {@code managed=false}. */
public record Network(
    String name,
    String description,
    String type,
    boolean managed,
    String status,
    String project,
    Map<String, String> config,
    List<String> usedBy,
    List<String> locations) {

  public Network {
    config = config == null ? Map.of() : config;
    usedBy = usedBy == null ? List.of() : usedBy;
    locations = locations == null ? List.of() : locations;
  }
}
