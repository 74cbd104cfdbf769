package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A cluster member; {@code status} is {@code Online}, {@code Offline}, {@code Evacuated}, ... */
public record ClusterMember(
    String serverName,
    String url,
    boolean database,
    String status,
    String message,
    String architecture,
    String description,
    String failureDomain,
    List<String> roles,
    List<String> groups,
    Map<String, String> config) {

  public ClusterMember {
    roles = roles == null ? List.of() : roles;
    groups = groups == null ? List.of() : groups;
    config = config == null ? Map.of() : config;
  }
}
