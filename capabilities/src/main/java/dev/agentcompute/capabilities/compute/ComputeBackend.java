package dev.agentcompute.capabilities.compute;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.net.AclRuleSpec;
import java.util.List;
import java.util.Optional;

/**
 * The seam between the compute service (validation, gate, TTL and pin policy) and the machines that
 * run sandboxes: Incus now, Lume later. Implementations keep every piece of sandbox state in the
 * backend itself, so a new service over the same backend loses nothing. Methods throw
 * {@link BackendException} for backend failures and {@link AgentFacingException} for conflicts only the
 * backend can detect (a duplicate snapshot, a NIC still attached).
 */
public interface ComputeBackend {
  /** The platform name sandboxes of this backend report ({@code incus}). */
  String platform();

  /** True when the backend answers and its prerequisites (pool, image project) exist. */
  boolean ready();

  /** Checks every catalogue image this backend serves is present; throws naming the first that is not. */
  void reconcileCatalog(ImageCatalog catalog);

  Optional<Sandbox> getSandbox(String name);

  List<Sandbox> listSandboxes();

  /** Creates the sandbox with its default network; {@link BackendException.Kind#CONFLICT} if it exists. */
  void createSandbox(Sandbox sandbox);

  /** Persists expiry and pin metadata of an existing sandbox. */
  void writeSandbox(Sandbox sandbox);

  /** Deletes everything of a sandbox in dependency order; NOT_FOUND when nothing existed. */
  void deleteSandbox(String name);

  List<Network> listNetworks(Sandbox sandbox);

  Network createNetwork(Sandbox sandbox, NetworkSpec spec);

  void deleteNetwork(Sandbox sandbox, String name);

  List<Instance> listInstances(Sandbox sandbox);

  Optional<Instance> getInstance(Sandbox sandbox, String name);

  /** A published image of the sandbox, if {@code name} is one. */
  Optional<ResolvedImage> publishedImage(Sandbox sandbox, String name);

  /** Starts creating an instance (under the gate); the returned handle is finished outside it. */
  PendingInstance acceptInstance(Sandbox sandbox, InstanceSpec spec);

  /** Waits for creation (and start) to finish; throws when it does not within {@code pending}'s budget. */
  Instance finishInstance(PendingInstance pending);

  void deleteInstance(Sandbox sandbox, String name);

  /** {@code start}, {@code stop} or {@code restart}, waiting until the state is reached; returns the status. */
  String changeState(Sandbox sandbox, String name, String action, boolean force);

  ExecResult exec(Sandbox sandbox, String name, ExecRequest request);

  /** Reads at most {@code limit + 1} bytes of a regular file. */
  byte[] readFile(Sandbox sandbox, String name, String path, int limit);

  void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode);

  void createSnapshot(Sandbox sandbox, String name, String snapshot);

  void restoreSnapshot(Sandbox sandbox, String name, String snapshot);

  void deleteSnapshot(Sandbox sandbox, String name, String snapshot);

  List<Snapshot> listSnapshots(Sandbox sandbox, String name);

  /** Publishes a stopped instance as a sandbox-scoped image named {@code image}. */
  void publish(Sandbox sandbox, String name, String image, ResolvedImage origin);

  /** Adds a NIC; returns its name and MAC. */
  Instance.Nic attachNic(Sandbox sandbox, String instance, String network, String nic, String ip, String mac);

  void detachNic(Sandbox sandbox, String instance, String nic);

  // ---- OVN fabric (spec §2.7, §3.5-3.6); the service calls these for OVN sandboxes only ----

  /** Peers two OVN networks in both directions; an existing identical peering is kept. */
  void peer(Sandbox sandbox, String network, String peer);

  /** Appends a rule to the network's agent ACL; returns its id ({@code r-<16 hex>}). */
  String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule);

  /** Removes an agent ACL rule by id (both directions). */
  void removeAclRule(Sandbox sandbox, String network, String rule);

  /** Forwards {@code listenPort/protocol} of an address from the OVN range to the instance's {@code port}. */
  Forward forward(Sandbox sandbox, String network, String instance, int port, int listenPort, String protocol);

  /** The ACL rows and logical ports in effect for a network, read from the OVN northbound database. */
  NetworkInspection inspect(Sandbox sandbox, String network);

  /** A creation the backend has accepted but not finished. */
  interface PendingInstance {
    String sandbox();

    String name();
  }
}
