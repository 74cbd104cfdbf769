package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.catalog.CatalogException;
import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.catalog.ImageSource;
import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import dev.agentcompute.capabilities.compute.ComputeBackend;
import dev.agentcompute.capabilities.compute.Errors;
import dev.agentcompute.capabilities.compute.ExecRequest;
import dev.agentcompute.capabilities.compute.ExecResult;
import dev.agentcompute.capabilities.compute.Instance;
import dev.agentcompute.capabilities.compute.InstanceSpec;
import dev.agentcompute.capabilities.compute.Network;
import dev.agentcompute.capabilities.compute.NetworkSpec;
import dev.agentcompute.capabilities.compute.ResolvedImage;
import dev.agentcompute.capabilities.compute.Sandbox;
import dev.agentcompute.capabilities.compute.Snapshot;
import dev.agentcompute.capabilities.compute.Timestamps;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.compute.Forward;
import dev.agentcompute.capabilities.compute.NetworkInspection;
import dev.agentcompute.capabilities.net.AclRuleSpec;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.net.OvnAddress;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Project;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Incus backend: a sandbox is a restricted project {@code ac-<name>} whose config carries all of
 * its state (expiry, pin, owner, member, network reservations), so a restarted service sees exactly
 * what the previous one left. Bridge networks live in the default project under opaque names and take
 * an explicit subnet from the configured pool.
 */
public final class IncusBackend implements ComputeBackend, AutoCloseable {
  /**
   * How long one background operation (image copy, instance creation, deletion) may take; the
   * client's default of 5 minutes is shorter than the budget the original gave creations.
   */
  static final Duration OPERATION_BUDGET = Duration.ofMinutes(10);

  private final IncusClient client;
  private final boolean ownsClient;
  private final ComputeConfig config;
  private final BridgeNetworks bridges;
  private final IncusInstances instances;
  private final Optional<OvnNorthbound> northbound;
  private final OvnAcls acls;
  private final OvnNetworks ovn;
  private final OvnForwards forwards;
  private final NorthboundInspector inspector;

  private IncusBackend(IncusClient client, boolean ownsClient, ComputeConfig config,
      Optional<OvnNorthbound> northbound) {
    this.client = client.inProject(null);
    this.ownsClient = ownsClient;
    this.config = config;
    this.northbound = northbound;
    this.bridges = new BridgeNetworks(this.client.networks(), config.bridgeSubnets());
    this.instances = new IncusInstances(this.client, config, this);
    this.acls = new OvnAcls(config.protectedRanges());
    this.ovn = new OvnNetworks(this.client, config.ovnUplink(), acls, bridges);
    this.forwards = new OvnForwards(this.client, config.ovnRanges(), northbound);
    this.inspector = new NorthboundInspector(northbound);
  }

  /** A backend talking to the incusd listening on {@code socket}. Does not contact it yet; closes its client. */
  public static IncusBackend overUnixSocket(Path socket, ComputeConfig config) {
    return new IncusBackend(IncusClient.unixSocket(socket).operationTimeout(OPERATION_BUDGET).build(), true, config,
        Optional.empty());
  }

  /**
   * A backend over a client the caller built (e.g. {@code IncusClient.https(...)} for a remote
   * daemon, or one with an {@code onCall} observer). Its project and target are ignored: sandboxes
   * pick their own projects. The caller keeps ownership: {@link #close()} does not close it.
   */
  public static IncusBackend over(IncusClient client, ComputeConfig config) {
    return new IncusBackend(client, false, config, Optional.empty());
  }

  /**
   * As {@link #over(IncusClient, ComputeConfig)}, with the OVN northbound database: readiness then
   * includes its connection, forward allocation skips addresses its NAT rules and load-balancer VIPs
   * hold, and net.inspect reads from it. The caller keeps ownership of both.
   */
  public static IncusBackend over(IncusClient client, ComputeConfig config, OvnNorthbound northbound) {
    return new IncusBackend(client, false, config, Optional.of(northbound));
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  /** incus-client's failures as this module's (see {@link IncusFailures}). */
  private static <T> T translated(Supplier<T> body) {
    return IncusFailures.translated(body);
  }

  private static void translated(Runnable body) {
    IncusFailures.translated(body);
  }

  private IncusClient inSandbox(String sandbox) {
    return client.inProject(Meta.project(sandbox));
  }

  @Override
  public String platform() {
    return "incus";
  }

  @Override
  public boolean ready() {
    try {
      client.storagePools().get(config.storagePool());
      client.projects().get(config.imageProject());
      return northbound.map(OvnNorthbound::isConnected).orElse(true);
    } catch (IncusException e) {
      return false;
    }
  }

  @Override
  public void reconcileCatalog(ImageCatalog catalog) {
    translated(() -> reconcile(catalog));
  }

  private void reconcile(ImageCatalog catalog) {
    for (CatalogImage image : catalog.images()) {
      if (!image.platform().equals("incus")) {
        continue;
      }
      switch (image.source()) {
        case ImageSource.Alias alias -> {
          try {
            client.inProject(config.imageProject()).images().alias(alias.alias(), null);
          } catch (IncusException e) {
            if (IncusFailures.isNotFound(e)) {
              throw new CatalogException("catalog image \"" + image.name() + "\": alias \"" + alias.alias()
                  + "\" is missing from Incus project \"" + config.imageProject() + "\"");
            }
            throw e;
          }
        }
        case ImageSource.Reference reference when reference.isRemoteAlias() -> {
          // Fetched on first use, like the original; nothing to check at startup.
        }
        case ImageSource.Reference reference -> {
          String digest = reference.reference().substring(reference.reference().indexOf("@") + 1);
          if (!aliasHasDigest(image.name(), digest)) {
            throw new CatalogException("catalog image \"" + image.name() + "\": " + reference.reference()
                + " is not imported; fetching OCI images is not available here, so import it into project \""
                + config.imageProject() + "\" as alias \"" + image.name() + "\" with property agentcompute.digest="
                + digest);
          }
        }
        case ImageSource.Seed seed -> {
          // Mac seeds are host-local.
        }
      }
    }
  }

  private boolean aliasHasDigest(String alias, String digest) {
    IncusClient images = client.inProject(config.imageProject());
    try {
      String fingerprint = images.images().alias(alias, null).target();
      return digest.equals(images.images().get(fingerprint).properties().getOrDefault("agentcompute.digest", ""));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return false;
      }
      throw e;
    }
  }

  // ---- sandboxes -------------------------------------------------------------------------------

  @Override
  public Optional<Sandbox> getSandbox(String name) {
    return translated(() -> {
      try {
        return parseSandbox(client.projects().get(Meta.project(name)));
      } catch (IncusException e) {
        if (IncusFailures.isNotFound(e)) {
          return Optional.<Sandbox>empty();
        }
        throw e;
      }
    });
  }

  @Override
  public List<Sandbox> listSandboxes() {
    List<Sandbox> result = new ArrayList<>();
    for (Project project : translated(() -> client.projects().list())) {
      parseSandbox(project).ifPresent(result::add);
    }
    return result;
  }

  private Optional<Sandbox> parseSandbox(Project project) {
    String projectName = project.name() == null ? "" : project.name();
    Map<String, String> cfg = project.config();
    if (!projectName.startsWith(Meta.PROJECT_PREFIX) || !"1".equals(cfg.get(Meta.VERSION))) {
      return Optional.empty();
    }
    boolean ovn = Set.of("true", "1", "yes", "on").contains(cfg.getOrDefault("features.networks", ""));
    boolean pinned = "true".equals(cfg.get(Meta.PINNED));
    String member = cfg.getOrDefault(Meta.HOST, "");
    return Optional.of(new Sandbox(
        projectName.substring(Meta.PROJECT_PREFIX.length()),
        "incus",
        Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.CREATED_AT, "")),
        Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.EXPIRES_AT, "")),
        cfg.getOrDefault(Meta.SUBJECT, ""),
        pinned,
        pinned ? cfg.getOrDefault(Meta.PINNED_BY, "") : "",
        pinned ? Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.PINNED_AT, "")) : null,
        ovn ? NetworkKind.OVN : NetworkKind.BRIDGE,
        member.isEmpty() ? config.member() : member));
  }

  @Override
  public void createSandbox(Sandbox sandbox) {
    translated(() -> create(sandbox));
  }

  private void create(Sandbox sandbox) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      createOvn(sandbox);
      return;
    }
    String project = Meta.project(sandbox.name());
    String physical = bridges.freePhysicalName();
    Map<String, String> cfg = Meta.restrictedProject();
    cfg.put("features.networks", "false");
    cfg.put("restricted.networks.access", physical);
    cfg.put(Meta.HOST, sandbox.member());
    cfg.put(Meta.NETWORK_PREFIX + "default", physical);
    cfg.putAll(metadata(sandbox));
    try {
      client.projects().create(project, "agentcompute sandbox " + sandbox.name(), cfg);
    } catch (IncusException.Conflict e) {
      throw new BackendException(Kind.CONFLICT, "sandbox " + sandbox.name() + " already exists", e);
    }
    bridges.create(sandbox.name(), "default", physical, null, true, true, true);
  }

  /** The OVN fabric: networks live in the project itself, with the configured uplink as the only one allowed. */
  private void createOvn(Sandbox sandbox) {
    Map<String, String> cfg = Meta.restrictedProject();
    cfg.put("features.networks", "true");
    cfg.put("restricted.networks.uplinks", config.ovnUplink());
    cfg.putAll(metadata(sandbox));
    try {
      client.projects().create(Meta.project(sandbox.name()), "agentcompute sandbox " + sandbox.name(), cfg);
    } catch (IncusException.Conflict e) {
      throw new BackendException(Kind.CONFLICT, "sandbox " + sandbox.name() + " already exists", e);
    }
    ovn.create(sandbox.name(), new NetworkSpec("default", NetworkKind.OVN, "", true, true, true), "");
  }

  private static Map<String, String> metadata(Sandbox sandbox) {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put(Meta.VERSION, "1");
    meta.put(Meta.CREATED_AT, Timestamps.metadata(sandbox.createdAt()));
    meta.put(Meta.EXPIRES_AT, Timestamps.metadata(sandbox.expiresAt()));
    meta.put(Meta.SUBJECT, sandbox.subject());
    if (sandbox.pinned()) {
      meta.put(Meta.PINNED, "true");
      meta.put(Meta.PINNED_BY, sandbox.pinnedBy());
      meta.put(Meta.PINNED_AT, Timestamps.metadata(sandbox.pinnedAt()));
    }
    return meta;
  }

  @Override
  public void writeSandbox(Sandbox sandbox) {
    translated(() -> updateProject(sandbox.name(), cfg -> {
      cfg.put(Meta.EXPIRES_AT, Timestamps.metadata(sandbox.expiresAt()));
      cfg.remove(Meta.PINNED);
      cfg.remove(Meta.PINNED_BY);
      cfg.remove(Meta.PINNED_AT);
      cfg.putAll(metadata(sandbox));
    }));
  }

  /** Read-modify-write of a sandbox project's config with its ETag, retried when someone else wrote. */
  void updateProject(String sandbox, Consumer<Map<String, String>> change) {
    client.projects().update(Meta.project(sandbox), current -> {
      Map<String, String> cfg = new LinkedHashMap<>(current.config());
      change.accept(cfg);
      return current.withConfig(cfg);
    });
  }

  /** Logical to physical bridge names reserved by a sandbox. */
  Map<String, String> reservations(String sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    try {
      client.projects().get(Meta.project(sandbox)).config().forEach((key, value) -> {
        if (key.startsWith(Meta.NETWORK_PREFIX)) {
          result.put(key.substring(Meta.NETWORK_PREFIX.length()), value);
        }
      });
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    return result;
  }

  @Override
  public void deleteSandbox(String name) {
    translated(() -> delete(name));
  }

  private void delete(String name) {
    String project = Meta.project(name);
    boolean projectExists;
    try {
      client.projects().get(project);
      projectExists = true;
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
      projectExists = false;
    }
    Map<String, String> owned = new LinkedHashMap<>(reservations(name));
    owned.putAll(bridges.taggedWith(name));
    if (projectExists) {
      IncusClient scoped = inSandbox(name);
      for (dev.agentcompute.incus.Instance instance : scoped.instances().list()) {
        instances.forceDelete(scoped, instance.name());
      }
      for (dev.agentcompute.incus.Image image : scoped.images().list()) {
        IncusFailures.ignoreNotFound(() -> scoped.images().delete(image.fingerprint()));
      }
      for (dev.agentcompute.incus.Profile profile : scoped.profiles().list()) {
        if (!profile.name().equals("default")) {
          IncusFailures.ignoreNotFound(() -> scoped.profiles().delete(profile.name()));
        }
      }
    }
    for (String physical : owned.values()) {
      bridges.delete(name, physical);
    }
    if (projectExists) {
      IncusClient scoped = inSandbox(name);
      for (dev.agentcompute.incus.Network network : ovn.owned(name)) {
        ovn.delete(name, network.name());
      }
      if (!ovn.owned(name).isEmpty()) {
        throw new BackendException(Kind.FAILED, "owned OVN networks still present in sandbox " + name);
      }
      OvnAcls.deleteOwned(scoped, name);
      IncusFailures.ignoreNotFound(() -> client.projects().delete(project));
    } else if (owned.isEmpty()) {
      throw new BackendException(Kind.NOT_FOUND, "sandbox " + name + " not found");
    }
  }

  // ---- networks --------------------------------------------------------------------------------

  @Override
  public List<Network> listNetworks(Sandbox sandbox) {
    return translated(() -> sandbox.networkKind() == NetworkKind.OVN ? ovn.list(sandbox.name())
        : bridges.list(sandbox.name()));
  }

  @Override
  public Network createNetwork(Sandbox sandbox, NetworkSpec spec) {
    return translated(() -> addNetwork(sandbox, spec));
  }

  private Network addNetwork(Sandbox sandbox, NetworkSpec spec) {
    if (spec.kind() == NetworkKind.OVN) {
      String router = spec.cidr() == null || spec.cidr().isEmpty() ? ""
          : OvnAddress.routerAddress(spec.cidr()).orElseThrow(() -> Errors.of("invalid cidr \"%s\"", spec.cidr()))
              .toString();
      return ovn.create(sandbox.name(), spec, router);
    }
    String physical = bridges.freePhysicalName();
    updateProject(sandbox.name(), cfg -> {
      String previous = cfg.put(Meta.NETWORK_PREFIX + spec.name(), physical);
      List<String> access = new ArrayList<>();
      for (String n : cfg.getOrDefault("restricted.networks.access", "").split(",")) {
        if (!n.isBlank() && !n.equals(previous)) {
          access.add(n.trim());
        }
      }
      access.add(physical);
      cfg.put("restricted.networks.access", String.join(",", access));
    });
    return bridges.create(sandbox.name(), spec.name(), physical, spec.cidr(), spec.dhcp(), spec.nat(), spec.dns());
  }

  @Override
  public void deleteNetwork(Sandbox sandbox, String name) {
    translated(() -> removeNetwork(sandbox, name));
  }

  private void removeNetwork(Sandbox sandbox, String name) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      if (ovn.get(sandbox.name(), name).isEmpty()) {
        throw Errors.networkNotFound(name, sandbox.name());
      }
      requireNoNics(sandbox, name);
      ovn.delete(sandbox.name(), name);
      return;
    }
    String physical = bridges.physicalName(sandbox.name(), name)
        .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
    requireNoNics(sandbox, name);
    bridges.delete(sandbox.name(), physical);
    updateProject(sandbox.name(), cfg -> {
      cfg.remove(Meta.NETWORK_PREFIX + name);
      List<String> access = new ArrayList<>();
      for (String n : cfg.getOrDefault("restricted.networks.access", "").split(",")) {
        if (!n.isBlank() && !n.trim().equals(physical)) {
          access.add(n.trim());
        }
      }
      cfg.put("restricted.networks.access", String.join(",", access));
    });
  }

  private void requireNoNics(Sandbox sandbox, String name) {
    for (Instance instance : instances.list(sandbox)) {
      if (instance.nics().stream().anyMatch(nic -> nic.network().equals(name))) {
        throw Errors.of("network \"%s\" still has attached NICs in sandbox \"%s\"", name, sandbox.name());
      }
    }
  }

  /**
   * The Incus name of a sandbox network: an OVN network's own (in the project), a bridge's reserved
   * or tagged physical name.
   */
  Optional<String> physicalNetwork(Sandbox sandbox, String logical) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      return ovn.get(sandbox.name(), logical).map(dev.agentcompute.incus.Network::name);
    }
    String reserved = reservations(sandbox.name()).get(logical);
    return reserved != null ? Optional.of(reserved) : bridges.physicalName(sandbox.name(), logical);
  }

  // ---- OVN fabric ------------------------------------------------------------------------------

  private dev.agentcompute.incus.Network requireOvnNetwork(Sandbox sandbox, String name) {
    return ovn.get(sandbox.name(), name).orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
  }

  @Override
  public void peer(Sandbox sandbox, String network, String peer) {
    translated(() -> {
      requireOvnNetwork(sandbox, network);
      requireOvnNetwork(sandbox, peer);
      ovn.peer(sandbox.name(), network, peer);
    });
  }

  @Override
  public String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule) {
    return translated(() -> {
      requireOvnNetwork(sandbox, network);
      return acls.add(inSandbox(sandbox.name()), network, rule);
    });
  }

  @Override
  public void removeAclRule(Sandbox sandbox, String network, String rule) {
    translated(() -> {
      requireOvnNetwork(sandbox, network);
      acls.remove(inSandbox(sandbox.name()), sandbox.name(), network, rule);
    });
  }

  @Override
  public Forward forward(Sandbox sandbox, String network, String instance, int port, int listenPort,
      String protocol) {
    return translated(() -> {
      dev.agentcompute.incus.Network net = requireOvnNetwork(sandbox, network);
      if ("none".equals(net.config().getOrDefault("network", "none")) || !"true".equals(net.config().get("ipv4.nat"))) {
        throw Errors.of("net.forward requires a NAT-enabled network; nat=false networks have no uplink");
      }
      Instance target = instances.get(sandbox, instance)
          .orElseThrow(() -> Errors.instanceNotFound(instance, sandbox.name()));
      Instance.Nic nic = target.nics().stream().filter(n -> n.network().equals(network)).findFirst()
          .orElseThrow(() -> Errors.of("instance \"%s\" has no NIC on network \"%s\"", instance, network));
      String address = OvnForwards.targetAddress(inSandbox(sandbox.name()), network, instance, nic.addresses())
          .orElseThrow(() -> new BackendException(Kind.FAILED,
              "instance " + instance + " has no address on network " + network));
      return forwards.forward(sandbox.name(), network, address, port, listenPort, protocol);
    });
  }

  @Override
  public NetworkInspection inspect(Sandbox sandbox, String network) {
    return translated(() -> {
      requireOvnNetwork(sandbox, network);
      IncusClient project = inSandbox(sandbox.name());
      return inspector.inspect(project, network, project.networkAcls().get(OvnAcls.BASELINE),
          project.networkAcls().get(OvnAcls.agentAclName(network)));
    });
  }

  // ---- instances (delegated) -------------------------------------------------------------------

  BridgeNetworks bridges() {
    return bridges;
  }

  @Override
  public List<Instance> listInstances(Sandbox sandbox) {
    return translated(() -> instances.list(sandbox));
  }

  @Override
  public Optional<Instance> getInstance(Sandbox sandbox, String name) {
    return translated(() -> instances.get(sandbox, name));
  }

  @Override
  public Optional<ResolvedImage> publishedImage(Sandbox sandbox, String name) {
    return translated(() -> instances.publishedImage(sandbox, name));
  }

  @Override
  public PendingInstance acceptInstance(Sandbox sandbox, InstanceSpec spec) {
    return translated(() -> instances.accept(sandbox, spec));
  }

  @Override
  public Instance finishInstance(PendingInstance pending) {
    return translated(() -> instances.finish(pending));
  }

  @Override
  public void deleteInstance(Sandbox sandbox, String name) {
    translated(() -> instances.delete(sandbox, name));
  }

  @Override
  public String changeState(Sandbox sandbox, String name, String action, boolean force) {
    return translated(() -> instances.changeState(sandbox, name, action, force));
  }

  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    return translated(() -> instances.exec(sandbox, name, request));
  }

  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    return translated(() -> instances.readFile(sandbox, name, path, limit));
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    translated(() -> instances.writeFile(sandbox, name, path, content, mode));
  }

  @Override
  public void createSnapshot(Sandbox sandbox, String name, String snapshot) {
    translated(() -> instances.createSnapshot(sandbox, name, snapshot));
  }

  @Override
  public void restoreSnapshot(Sandbox sandbox, String name, String snapshot) {
    translated(() -> instances.restoreSnapshot(sandbox, name, snapshot));
  }

  @Override
  public void deleteSnapshot(Sandbox sandbox, String name, String snapshot) {
    translated(() -> instances.deleteSnapshot(sandbox, name, snapshot));
  }

  @Override
  public List<Snapshot> listSnapshots(Sandbox sandbox, String name) {
    return translated(() -> instances.listSnapshots(sandbox, name));
  }

  @Override
  public void publish(Sandbox sandbox, String name, String image, ResolvedImage origin) {
    translated(() -> instances.publish(sandbox, name, image, origin));
  }

  @Override
  public Instance.Nic attachNic(Sandbox sandbox, String instance, String network, String nic, String ip, String mac) {
    return translated(() -> instances.attachNic(sandbox, instance, network, nic, ip, mac));
  }

  @Override
  public void detachNic(Sandbox sandbox, String instance, String nic) {
    translated(() -> instances.detachNic(sandbox, instance, nic));
  }
}
