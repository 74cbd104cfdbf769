package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** The writable fields of an instance ({@code PUT /1.0/instances/{name}}). */
public record InstancePut(
    String architecture,
    String description,
    Boolean ephemeral,
    List<String> profiles,
    Map<String, String> config,
    Map<String, Map<String, String>> devices,
    Boolean stateful) {

  public InstancePut withConfig(Map<String, String> newConfig) {
    return new InstancePut(
        architecture, description, ephemeral, profiles, newConfig, devices, stateful);
  }

  public InstancePut withDevices(Map<String, Map<String, String>> newDevices) {
    return new InstancePut(
        architecture, description, ephemeral, profiles, config, newDevices, stateful);
  }
}
