package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/**
 * An Incus project. {@code config} holds the {@code features.*}, {@code restricted.*} and {@code
 * user.*} keys.
 */
public record Project(
    String name, String description, Map<String, String> config, List<String> usedBy) {

  public Project {
    config = config == null ? Map.of() : Map.copyOf(config);
    usedBy = usedBy == null ? List.of() : usedBy;
  }

  /** A copy with a different configuration (for updates). */
  public Project withConfig(Map<String, String> newConfig) {
    return new Project(name, description, newConfig, usedBy);
  }
}
