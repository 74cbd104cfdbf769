package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A profile: config and devices applied to instances that list it. */
public record Profile(
    String name,
    String description,
    Map<String, String> config,
    Map<String, Map<String, String>> devices,
    List<String> usedBy,
    String project) {

  public Profile {
    config = config == null ? Map.of() : config;
    devices = devices == null ? Map.of() : devices;
    usedBy = usedBy == null ? List.of() : usedBy;
  }

  public Profile withDevices(Map<String, Map<String, String>> newDevices) {
    return new Profile(name, description, config, newDevices, usedBy, project);
  }

  public Profile withConfig(Map<String, String> newConfig) {
    return new Profile(name, description, newConfig, devices, usedBy, project);
  }
}
