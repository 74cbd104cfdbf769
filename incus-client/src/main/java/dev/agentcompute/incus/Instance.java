package dev.agentcompute.incus;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An instance (container or VM). {@code state} and {@code snapshots} are filled only when read with
 * recursion (a single {@code get}, or {@code list} with full recursion).
 */
public record Instance(
    String name,
    String type,
    String description,
    String status,
    int statusCode,
    String architecture,
    String location,
    String project,
    boolean ephemeral,
    boolean stateful,
    List<String> profiles,
    Map<String, String> config,
    Map<String, Map<String, String>> devices,
    Map<String, String> expandedConfig,
    Map<String, Map<String, String>> expandedDevices,
    Instant createdAt,
    State state,
    List<Snapshot> snapshots) {

  public Instance {
    profiles = profiles == null ? List.of() : profiles;
    config = config == null ? Map.of() : config;
    devices = devices == null ? Map.of() : devices;
    expandedConfig = expandedConfig == null ? Map.of() : expandedConfig;
    expandedDevices = expandedDevices == null ? Map.of() : expandedDevices;
    snapshots = snapshots == null ? List.of() : snapshots;
  }

  /** The writable part of this instance, for {@code PUT /1.0/instances/{name}}. */
  public InstancePut toPut() {
    return new InstancePut(
        architecture, description, ephemeral, profiles, config, devices, stateful);
  }

  /** Runtime state ({@code GET /1.0/instances/{name}/state}). */
  public record State(
      String status, int statusCode, long pid, long processes, Map<String, Nic> network) {
    public State {
      network = network == null ? Map.of() : network;
    }
  }

  /** One guest network interface as observed at runtime. */
  public record Nic(
      String hwaddr, String hostName, String state, String type, int mtu, List<Address> addresses) {
    public Nic {
      addresses = addresses == null ? List.of() : addresses;
    }
  }

  /**
   * An address on a guest interface; {@code scope} is {@code global}, {@code link} or {@code
   * local}.
   */
  public record Address(String family, String address, String netmask, String scope) {}
}
