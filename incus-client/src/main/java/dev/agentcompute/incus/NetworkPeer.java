package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A peering from one OVN network to another ({@code type=local}). */
public record NetworkPeer(
    String name,
    String description,
    String type,
    String targetProject,
    String targetNetwork,
    String status,
    Map<String, String> config,
    List<String> usedBy) {

  public NetworkPeer {
    config = config == null ? Map.of() : config;
    usedBy = usedBy == null ? List.of() : usedBy;
  }

  public static NetworkPeer local(
      String name, String targetProject, String targetNetwork, Map<String, String> config) {
    return new NetworkPeer(name, null, "local", targetProject, targetNetwork, null, config, null);
  }
}
