package dev.agentcompute.capabilities.compute;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A backend that keeps sandboxes in a map, for unit tests of the service's policy (validation order,
 * TTL, pins, reaping). The Incus backend itself is tested against the real incusd in the ITs.
 */
final class InMemoryBackend implements ComputeBackend {
  final Map<String, Sandbox> sandboxes = new LinkedHashMap<>();
  final List<String> calls = new ArrayList<>();
  int failDeletes;
  boolean failNetwork;

  @Override
  public String platform() {
    return "incus";
  }

  @Override
  public boolean ready() {
    return true;
  }

  @Override
  public void reconcileCatalog(ImageCatalog catalog) {}

  @Override
  public Optional<Sandbox> getSandbox(String name) {
    calls.add("get " + name);
    return Optional.ofNullable(sandboxes.get(name));
  }

  @Override
  public List<Sandbox> listSandboxes() {
    calls.add("list");
    return List.copyOf(sandboxes.values());
  }

  @Override
  public void createSandbox(Sandbox sandbox) {
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
  public void writeSandbox(Sandbox sandbox) {
    calls.add("write " + sandbox.name());
    sandboxes.put(sandbox.name(), sandbox);
  }

  @Override
  public void deleteSandbox(String name) {
    calls.add("delete " + name);
    if (failDeletes > 0) {
      failDeletes--;
      throw new BackendException(BackendException.Kind.UNAVAILABLE, "backend unavailable");
    }
    if (sandboxes.remove(name) == null) {
      throw new BackendException(BackendException.Kind.NOT_FOUND, name);
    }
  }

  @Override
  public List<Network> listNetworks(Sandbox sandbox) {
    return List.of(Network.of("default", "bridge", "10.211.0.1/24"));
  }

  @Override
  public Network createNetwork(Sandbox sandbox, NetworkSpec spec) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void deleteNetwork(Sandbox sandbox, String name) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<Instance> listInstances(Sandbox sandbox) {
    return List.of();
  }

  @Override
  public Optional<Instance> getInstance(Sandbox sandbox, String name) {
    return Optional.empty();
  }

  @Override
  public Optional<ResolvedImage> publishedImage(Sandbox sandbox, String name) {
    return Optional.empty();
  }

  @Override
  public PendingInstance acceptInstance(Sandbox sandbox, InstanceSpec spec) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Instance finishInstance(PendingInstance pending) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void deleteInstance(Sandbox sandbox, String name) {
    throw new UnsupportedOperationException();
  }

  @Override
  public String changeState(Sandbox sandbox, String name, String action, boolean force) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void createSnapshot(Sandbox sandbox, String name, String snapshot) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void restoreSnapshot(Sandbox sandbox, String name, String snapshot) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void deleteSnapshot(Sandbox sandbox, String name, String snapshot) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<Snapshot> listSnapshots(Sandbox sandbox, String name) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void publish(Sandbox sandbox, String name, String image, ResolvedImage origin) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Instance.Nic attachNic(Sandbox sandbox, String instance, String network, String nic, String ip, String mac) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void detachNic(Sandbox sandbox, String instance, String nic) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void peer(Sandbox sandbox, String network, String peer) {
    calls.add("peer " + network + " " + peer);
  }

  @Override
  public String addAclRule(Sandbox sandbox, String network, dev.agentcompute.capabilities.net.AclRuleSpec rule) {
    calls.add("acl add " + network + " " + rule.action());
    return "r-0000000000000001";
  }

  @Override
  public void removeAclRule(Sandbox sandbox, String network, String rule) {
    calls.add("acl remove " + network + " " + rule);
  }

  @Override
  public Forward forward(Sandbox sandbox, String network, String instance, int port, int listenPort,
      String protocol) {
    calls.add("forward " + network + " " + instance + " " + port + " " + listenPort + " " + protocol);
    return new Forward("192.0.2.1", listenPort);
  }

  @Override
  public NetworkInspection inspect(Sandbox sandbox, String network) {
    calls.add("inspect " + network);
    return new NetworkInspection(network, "", List.of(), List.of());
  }
}
