package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.NicSettings;
import dev.agentcompute.capabilities.model.OvnAddress;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Tagged;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Sandbox networks on Incus, by the sandbox's fabric: bridges in the default project (each reserved
 * in the sandbox's config and in its {@code restricted.networks.access}) or OVN networks in the
 * sandbox project; and instance NICs on them, changed with the instance's ETag.
 */
final class IncusNetworkDriver implements NetworkDriver {
  private static final String ACCESS_KEY = "restricted.networks.access";

  private final SandboxProjects projects;
  private final BridgeNetworks bridges;
  private final OvnNetworks ovn;
  private final InstanceReader reader;
  private final NetworkNames names;

  IncusNetworkDriver(
      SandboxProjects projects,
      BridgeNetworks bridges,
      OvnNetworks ovn,
      InstanceReader reader,
      NetworkNames names) {
    this.projects = projects;
    this.bridges = bridges;
    this.ovn = ovn;
    this.reader = reader;
    this.names = names;
  }

  @Override
  public List<SandboxNetwork> list(Sandbox sandbox) {
    return sandbox.networkKind() == NetworkKind.OVN
        ? ovn.list(sandbox.name())
        : bridges.list(sandbox.name(), projects.reservations(sandbox.name()));
  }

  @Override
  public SandboxNetwork create(Sandbox sandbox, NetworkPlan plan) {
    if (plan.kind() == NetworkKind.OVN) {
      String router =
          plan.cidr() == null || plan.cidr().isEmpty()
              ? ""
              : OvnAddress.routerAddress(plan.cidr())
                  .orElseThrow(() -> Errors.of("invalid cidr \"%s\"", plan.cidr()))
                  .toString();
      return ovn.create(sandbox.name(), plan, router);
    }
    String physical = bridges.freePhysicalName();
    projects.update(
        sandbox.name(),
        cfg -> {
          String previous = cfg.put(Meta.NETWORK_PREFIX + plan.name(), physical);
          List<String> access = access(cfg, previous);
          access.add(physical);
          cfg.put(ACCESS_KEY, String.join(",", access));
        });
    try {
      return bridges.create(sandbox.name(), physical, plan);
    } catch (RuntimeException e) {
      // Nothing half-done: a bridge that was refused (subnet in use) or failed keeps no
      // reservation in the sandbox.
      try {
        unreserve(sandbox, plan.name(), physical);
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private void unreserve(Sandbox sandbox, String logical, String physical) {
    projects.update(
        sandbox.name(),
        cfg -> {
          cfg.remove(Meta.NETWORK_PREFIX + logical);
          cfg.put(ACCESS_KEY, String.join(",", access(cfg, physical)));
        });
  }

  /** The bridges a sandbox project may use, without {@code removed}. */
  private static List<String> access(Map<String, String> cfg, String removed) {
    List<String> access = new ArrayList<>();
    for (String n : cfg.getOrDefault(ACCESS_KEY, "").split(",")) {
      if (!n.isBlank() && !n.trim().equals(removed)) {
        access.add(n.trim());
      }
    }
    return access;
  }

  @Override
  public void delete(Sandbox sandbox, String name) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      if (ovn.get(sandbox.name(), name).isEmpty()) {
        throw Errors.networkNotFound(name, sandbox.name());
      }
      requireNoNics(sandbox, name);
      ovn.delete(sandbox.name(), name);
      return;
    }
    String physical =
        names
            .physical(sandbox, name)
            .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
    requireNoNics(sandbox, name);
    bridges.delete(sandbox.name(), physical);
    unreserve(sandbox, name, physical);
  }

  private void requireNoNics(Sandbox sandbox, String name) {
    for (SandboxInstance instance : reader.list(sandbox)) {
      if (instance.nics().stream().anyMatch(nic -> nic.network().equals(name))) {
        throw Errors.of(
            "network \"%s\" still has attached NICs in sandbox \"%s\"", name, sandbox.name());
      }
    }
  }

  // ---- NICs ------------------------------------------------------------------------------------

  /** The instance's own devices with its ETag, for a guarded update. */
  private static Tagged<dev.agentcompute.incus.Instance> tagged(
      IncusClient project, Sandbox sandbox, String name) {
    try {
      return project.instances().getTagged(name);
    } catch (IncusException e) {
      throw IncusFailures.isNotFound(e) ? Errors.instanceNotFound(name, sandbox.name()) : e;
    }
  }

  /** A mutable copy of an instance's own devices. */
  private static Map<String, Map<String, String>> devices(
      dev.agentcompute.incus.Instance instance) {
    Map<String, Map<String, String>> devices = new LinkedHashMap<>();
    instance.devices().forEach((key, device) -> devices.put(key, new LinkedHashMap<>(device)));
    return devices;
  }

  @Override
  public SandboxInstance.Nic attach(
      Sandbox sandbox, String instanceName, String network, String nic, String ip, String mac) {
    IncusClient project = reader.in(sandbox);
    Tagged<dev.agentcompute.incus.Instance> current = tagged(project, sandbox, instanceName);
    Map<String, Map<String, String>> devices = devices(current.value());
    Set<String> taken = new HashSet<>();
    devices.forEach(
        (key, device) -> {
          taken.add(key);
          if (device.containsKey("name")) {
            taken.add(device.get("name"));
          }
        });
    String nicName = nic;
    if (nicName == null || nicName.isEmpty()) {
      int i = 0;
      while (taken.contains("eth" + i)) {
        i++;
      }
      nicName = "eth" + i;
    } else if (taken.contains(nicName)) {
      throw Errors.of("nic \"%s\" already exists on instance \"%s\"", nicName, instanceName);
    }
    String physical =
        names
            .physical(sandbox, network)
            .orElseThrow(() -> Errors.networkNotFound(network, sandbox.name()));
    Map<String, String> device = new LinkedHashMap<>();
    device.put("type", "nic");
    device.put("network", physical);
    device.put("name", nicName);
    if (ip != null && !ip.isEmpty()) {
      device.put("ipv4.address", ip);
    }
    if (mac != null && !mac.isEmpty()) {
      device.put("hwaddr", mac);
    }
    if (sandbox.networkKind() == NetworkKind.BRIDGE) {
      device.putAll(NicFiltering.keys(project.networks().get(physical).config(), ip));
    }
    devices.put(nicName, device);
    project
        .instances()
        .update(instanceName, current.value().toPut().withDevices(devices), current.etag());
    SandboxInstance after = reader.require(sandbox, instanceName);
    final String chosen = nicName;
    return after.nics().stream()
        .filter(n -> n.name().equals(chosen))
        .findFirst()
        .orElse(new SandboxInstance.Nic(chosen, network, mac == null ? "" : mac, List.of()));
  }

  @Override
  public void detach(Sandbox sandbox, String instanceName, String nic) {
    IncusClient project = reader.in(sandbox);
    Tagged<dev.agentcompute.incus.Instance> current = tagged(project, sandbox, instanceName);
    Map<String, Map<String, String>> devices = devices(current.value());
    String key = null;
    for (var entry : devices.entrySet()) {
      if ("nic".equals(entry.getValue().get("type"))
          && (entry.getKey().equals(nic) || nic.equals(entry.getValue().get("name")))) {
        key = entry.getKey();
      }
    }
    if (key == null) {
      throw Errors.nicNotFound(nic, instanceName, sandbox.name());
    }
    devices.remove(key);
    project
        .instances()
        .update(instanceName, current.value().toPut().withDevices(devices), current.etag());
  }

  /** Incus's defaults when {@code bridge.mtu} is unset: 1500 on bridges, 1442 on OVN (Geneve). */
  private static final int BRIDGE_MTU = 1500;

  private static final int OVN_MTU = 1442;

  @Override
  public Optional<NicSettings> settings(Sandbox sandbox, String network) {
    Optional<String> physical = names.physical(sandbox, network);
    if (physical.isEmpty()) {
      return Optional.empty();
    }
    // A project without its own networks reads the default project's, so one client serves both.
    Map<String, String> cfg = reader.in(sandbox).networks().get(physical.get()).config();
    int fallback = sandbox.networkKind() == NetworkKind.OVN ? OVN_MTU : BRIDGE_MTU;
    int mtu;
    try {
      mtu = Integer.parseInt(cfg.getOrDefault("bridge.mtu", Integer.toString(fallback)));
    } catch (NumberFormatException e) {
      mtu = fallback;
    }
    return Optional.of(new NicSettings(mtu, "true".equals(cfg.get("ipv4.nat"))));
  }
}
