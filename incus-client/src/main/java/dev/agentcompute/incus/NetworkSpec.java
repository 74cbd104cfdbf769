package dev.agentcompute.incus;

import java.util.Map;

/**
 * A network to create. On a cluster, create it once per member with only member-specific keys (the
 * client's {@code onTarget(member)} view), then once without a target with the full config.
 */
public record NetworkSpec(
    String name, String type, String description, Map<String, String> config) {

  public static NetworkSpec bridge(String name, Map<String, String> config) {
    return new NetworkSpec(name, "bridge", null, config);
  }
}
