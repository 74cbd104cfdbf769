package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.capabilities.platform.OvnFabric;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A platform that keeps sandboxes in a map and records the calls that reach it, for unit tests of
 * the services' policy (validation order, TTL, pins, reaping). Instances, files and snapshots are
 * not modelled (a sandbox has none). The Incus platform itself is tested against the real incusd in
 * the ITs.
 */
final class InMemoryPlatform {
  final Map<String, Sandbox> sandboxes = new LinkedHashMap<>();
  final List<String> calls = new ArrayList<>();
  int failDeletes;
  boolean failNetwork;

  /** The platform ({@code incus}) over this map. */
  Platform platform() {
    return new Platform(
        "incus",
        () -> true,
        new Store(),
        new Instances(),
        new Snapshots(),
        Optional.of(new Images()),
        Optional.of(new Networks()),
        Optional.of(new Ovn()));
  }

  private final class Store implements SandboxStore {
    @Override
    public Optional<Sandbox> find(String name) {
      calls.add("get " + name);
      return Optional.ofNullable(sandboxes.get(name));
    }

    @Override
    public List<Sandbox> list() {
      calls.add("list");
      return List.copyOf(sandboxes.values());
    }

    @Override
    public void create(Sandbox sandbox) {
      calls.add("create " + sandbox.name());
      if (sandboxes.containsKey(sandbox.name())) {
        throw new BackendException(BackendException.Kind.CONFLICT, "exists");
      }
      sandboxes.put(sandbox.name(), sandbox);
      if (failNetwork) {
        throw new BackendException(BackendException.Kind.FAILED, "bridge creation failed");
      }
    }

    @Override
    public void write(Sandbox sandbox) {
      calls.add("write " + sandbox.name());
      sandboxes.put(sandbox.name(), sandbox);
    }

    @Override
    public void delete(String name) {
      calls.add("delete " + name);
      if (failDeletes > 0) {
        failDeletes--;
        throw new BackendException(BackendException.Kind.UNAVAILABLE, "backend unavailable");
      }
      if (sandboxes.remove(name) == null) {
        throw new BackendException(BackendException.Kind.NOT_FOUND, name);
      }
    }
  }

  private static final class Instances extends UnsupportedInstances {
    @Override
    public List<SandboxInstance> list(Sandbox sandbox) {
      return List.of();
    }

    @Override
    public Optional<SandboxInstance> find(Sandbox sandbox, String name) {
      return Optional.empty();
    }
  }

  private static final class Snapshots implements SnapshotDriver {
    @Override
    public void create(Sandbox sandbox, String instance, String snapshot) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void restore(Sandbox sandbox, String instance, String snapshot) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void delete(Sandbox sandbox, String instance, String snapshot) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<InstanceSnapshot> list(Sandbox sandbox, String instance) {
      throw new UnsupportedOperationException();
    }
  }

  private static final class Images implements ImageDriver {
    @Override
    public void reconcile(ImageCatalog catalog) {}

    @Override
    public Optional<ResolvedImage> published(Sandbox sandbox, String name) {
      return Optional.empty();
    }

    @Override
    public void publish(Sandbox sandbox, String instance, String image, ResolvedImage origin) {
      throw new UnsupportedOperationException();
    }
  }

  private static final class Networks implements NetworkDriver {
    @Override
    public List<SandboxNetwork> list(Sandbox sandbox) {
      return List.of(SandboxNetwork.of("default", "bridge", "10.211.0.1/24"));
    }

    @Override
    public SandboxNetwork create(Sandbox sandbox, NetworkPlan plan) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void delete(Sandbox sandbox, String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SandboxInstance.Nic attach(
        Sandbox sandbox, String instance, String network, String nic, String ip, String mac) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void detach(Sandbox sandbox, String instance, String nic) {
      throw new UnsupportedOperationException();
    }
  }

  private final class Ovn implements OvnFabric {
    @Override
    public void peer(Sandbox sandbox, String network, String peer) {
      calls.add("peer " + network + " " + peer);
    }

    @Override
    public String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule) {
      calls.add("acl add " + network + " " + rule.action().wireName());
      return "r-0000000000000001";
    }

    @Override
    public void removeAclRule(Sandbox sandbox, String network, String rule) {
      calls.add("acl remove " + network + " " + rule);
    }

    @Override
    public PortForward forward(
        Sandbox sandbox,
        String network,
        String instance,
        int port,
        int listenPort,
        ForwardProtocol protocol) {
      calls.add(
          "forward "
              + network
              + " "
              + instance
              + " "
              + port
              + " "
              + listenPort
              + " "
              + protocol.wireName());
      return new PortForward("192.0.2.1", listenPort);
    }

    @Override
    public NetworkInspection inspect(Sandbox sandbox, String network) {
      calls.add("inspect " + network);
      return new NetworkInspection(network, "", List.of(), List.of());
    }
  }
}
