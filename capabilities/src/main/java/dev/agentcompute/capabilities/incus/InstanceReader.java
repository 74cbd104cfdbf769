package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a sandbox's instances as agents see them: NICs by logical network name with their observed
 * addresses, limits, snapshots and the recorded image. Shared by every Incus driver that needs to
 * look at an instance before acting on it.
 */
final class InstanceReader {
  private final IncusClient client;
  private final NetworkNames names;
  private final ClusterMembers members;

  InstanceReader(IncusClient client, NetworkNames names, ClusterMembers members) {
    this.client = client;
    this.names = names;
    this.members = members;
  }

  IncusClient in(Sandbox sandbox) {
    return client.inProject(Meta.project(sandbox.name()));
  }

  List<SandboxInstance> list(Sandbox sandbox) {
    Map<String, String> logical = names.logicalByPhysical(sandbox);
    List<SandboxInstance> result = new ArrayList<>();
    for (dev.agentcompute.incus.Instance instance : in(sandbox).instances().listWithState()) {
      result.add(parse(instance, logical));
    }
    return result;
  }

  Optional<SandboxInstance> find(Sandbox sandbox, String name) {
    return find(sandbox, name, false);
  }

  /** {@link #find} without the state and snapshots (no observed addresses, no snapshot names). */
  Optional<SandboxInstance> findBrief(Sandbox sandbox, String name) {
    return find(sandbox, name, true);
  }

  private Optional<SandboxInstance> find(Sandbox sandbox, String name, boolean brief) {
    try {
      dev.agentcompute.incus.Instances instances = in(sandbox).instances();
      return Optional.of(
          parse(
              brief ? instances.getBrief(name) : instances.get(name),
              names.logicalByPhysical(sandbox)));
    } catch (IncusException.Unavailable e) {
      // On a cluster: the instance's member does not answer; say which one.
      throw MemberOutage.of(in(sandbox), members, name, e);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  SandboxInstance require(Sandbox sandbox, String name) {
    return find(sandbox, name).orElseThrow(() -> Errors.instanceNotFound(name, sandbox.name()));
  }

  private static SandboxInstance parse(
      dev.agentcompute.incus.Instance node, Map<String, String> logical) {
    Map<String, String> cfg = node.config();
    Map<String, Map<String, String>> devices =
        node.expandedDevices().isEmpty() ? node.devices() : node.expandedDevices();
    Map<String, dev.agentcompute.incus.Instance.Nic> stateNetwork =
        node.state() == null ? Map.of() : node.state().network();
    List<SandboxInstance.Nic> nics = new ArrayList<>();
    Map<String, List<String>> addresses = new LinkedHashMap<>();
    devices.forEach(
        (key, device) -> {
          if (!"nic".equals(device.get("type"))) {
            return;
          }
          String nicName = device.getOrDefault("name", key);
          String mac = device.getOrDefault("hwaddr", "");
          if (mac.isEmpty()) {
            mac = cfg.getOrDefault("volatile." + key + ".hwaddr", "");
          }
          List<String> observed = new ArrayList<>();
          dev.agentcompute.incus.Instance.Nic iface = stateNetwork.get(nicName);
          if (!mac.isEmpty()) {
            for (dev.agentcompute.incus.Instance.Nic candidate : stateNetwork.values()) {
              if (mac.equalsIgnoreCase(candidate.hwaddr() == null ? "" : candidate.hwaddr())) {
                iface = candidate;
              }
            }
          }
          for (dev.agentcompute.incus.Instance.Address address :
              iface == null
                  ? List.<dev.agentcompute.incus.Instance.Address>of()
                  : iface.addresses()) {
            String scope = address.scope() == null ? "" : address.scope();
            if (!scope.equals("link") && !scope.equals("local")) {
              observed.add(address.address());
            }
          }
          String network = device.getOrDefault("network", "");
          nics.add(
              new SandboxInstance.Nic(
                  nicName, logical.getOrDefault(network, network), mac, observed));
          addresses.put(nicName, observed);
        });
    List<String> snapshots = new ArrayList<>();
    for (dev.agentcompute.incus.Snapshot snapshot : node.snapshots()) {
      snapshots.add(shortName(snapshot.name()));
    }
    String type = node.type() == null ? "container" : node.type();
    return new SandboxInstance(
        node.name(),
        type.equals("virtual-machine") ? "vm" : "container",
        cfg.getOrDefault(Meta.IMAGE, ""),
        node.status() == null ? "" : node.status(),
        parseInt(cfg.getOrDefault("limits.cpu", "")),
        memoryMb(cfg.getOrDefault("limits.memory", "")),
        nics,
        "true".equals(cfg.get(Meta.DESKTOP)),
        snapshots,
        addresses,
        node.location() == null ? "" : node.location(),
        cfg.getOrDefault("image.os", ""),
        // Incus guests report no VNC endpoint; desktop.info derives one from forwards and NICs.
        "");
  }

  /** A snapshot's own name, whether or not the server prefixed it with {@code instance/}. */
  static String shortName(String name) {
    String full = name == null ? "" : name;
    return full.contains("/") ? full.substring(full.indexOf('/') + 1) : full;
  }

  static int parseInt(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static int memoryMb(String text) {
    String t = text.trim();
    try {
      if (t.endsWith("MiB")) {
        return Integer.parseInt(t.substring(0, t.length() - 3));
      }
      if (t.endsWith("GiB")) {
        return Integer.parseInt(t.substring(0, t.length() - 3)) * 1024;
      }
      if (t.endsWith("MB")) {
        return (int) (Long.parseLong(t.substring(0, t.length() - 2)) * 1_000_000L / (1024 * 1024));
      }
      return t.isEmpty() ? 0 : (int) (Long.parseLong(t) / (1024 * 1024));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
