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
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.incus.IncusClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * The Incus backend: a sandbox is a restricted project {@code ac-<name>} whose config carries all of
 * its state (expiry, pin, owner, member, network reservations), so a restarted service sees exactly
 * what the previous one left. Bridge networks live in the default project under opaque names and take
 * an explicit subnet from the configured pool.
 */
public final class IncusBackend implements ComputeBackend, AutoCloseable {
  private static final int PROJECT_UPDATE_TRIES = 8;

  private final IncusRest rest;
  private final ComputeConfig config;
  private final BridgeNetworks bridges;
  private final IncusInstances instances;
  private final IncusClient client;

  private IncusBackend(IncusRest rest, IncusClient client, ComputeConfig config) {
    this.rest = rest;
    this.client = client;
    this.config = config;
    this.bridges = new BridgeNetworks(rest, config.bridgeSubnets());
    this.instances = new IncusInstances(rest, client, config, this);
  }

  /**
   * A backend talking to the incusd listening on {@code socket}. Does not contact it yet. Exec goes
   * through {@link IncusClient} (websockets); everything else through this module's REST envelope,
   * which also streams image export/import between projects (not offered by the client).
   */
  public static IncusBackend overUnixSocket(Path socket, ComputeConfig config) {
    return new IncusBackend(new IncusRest(new UnixSocketHttp(socket)), IncusClient.unixSocket(socket).build(), config);
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String platform() {
    return "incus";
  }

  @Override
  public boolean ready() {
    try {
      rest.get(null, "/1.0/storage-pools/" + IncusRest.encode(config.storagePool()));
      rest.get(null, "/1.0/projects/" + IncusRest.encode(config.imageProject()));
      return true;
    } catch (BackendException e) {
      return false;
    }
  }

  @Override
  public void reconcileCatalog(ImageCatalog catalog) {
    for (CatalogImage image : catalog.images()) {
      if (!image.platform().equals("incus")) {
        continue;
      }
      switch (image.source()) {
        case ImageSource.Alias alias -> {
          try {
            rest.get(config.imageProject(), "/1.0/images/aliases/" + IncusRest.encode(alias.alias()));
          } catch (BackendException e) {
            if (e.isNotFound()) {
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
    try {
      JsonNode target = rest.get(config.imageProject(), "/1.0/images/aliases/" + IncusRest.encode(alias));
      JsonNode image = rest.get(config.imageProject(), "/1.0/images/" + target.path("target").asString());
      return digest.equals(image.path("properties").path("agentcompute.digest").asString(""));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        return false;
      }
      throw e;
    }
  }

  // ---- sandboxes -------------------------------------------------------------------------------

  @Override
  public Optional<Sandbox> getSandbox(String name) {
    try {
      return parseSandbox(rest.get(null, "/1.0/projects/" + IncusRest.encode(Meta.project(name))));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public List<Sandbox> listSandboxes() {
    List<Sandbox> result = new ArrayList<>();
    for (JsonNode project : rest.get(null, "/1.0/projects?recursion=1")) {
      parseSandbox(project).ifPresent(result::add);
    }
    return result;
  }

  private Optional<Sandbox> parseSandbox(JsonNode project) {
    String projectName = project.path("name").asString("");
    JsonNode cfg = project.path("config");
    if (!projectName.startsWith(Meta.PROJECT_PREFIX) || !"1".equals(cfg.path(Meta.VERSION).asString(""))) {
      return Optional.empty();
    }
    boolean ovn = Set.of("true", "1", "yes", "on").contains(cfg.path("features.networks").asString(""));
    boolean pinned = "true".equals(cfg.path(Meta.PINNED).asString(""));
    String member = cfg.path(Meta.HOST).asString("");
    return Optional.of(new Sandbox(
        projectName.substring(Meta.PROJECT_PREFIX.length()),
        "incus",
        Timestamps.parseOrEpoch(cfg.path(Meta.CREATED_AT).asString("")),
        Timestamps.parseOrEpoch(cfg.path(Meta.EXPIRES_AT).asString("")),
        cfg.path(Meta.SUBJECT).asString(""),
        pinned,
        pinned ? cfg.path(Meta.PINNED_BY).asString("") : "",
        pinned ? Timestamps.parseOrEpoch(cfg.path(Meta.PINNED_AT).asString("")) : null,
        ovn ? NetworkKind.OVN : NetworkKind.BRIDGE,
        member.isEmpty() ? config.member() : member));
  }

  @Override
  public void createSandbox(Sandbox sandbox) {
    if (sandbox.networkKind() != NetworkKind.BRIDGE) {
      throw new BackendException(Kind.FAILED, "OVN sandboxes are not available in this build");
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
      rest.call(null, "POST", "/1.0/projects", Map.of("name", project, "config", cfg,
          "description", "agentcompute sandbox " + sandbox.name()));
    } catch (BackendException e) {
      if (e.kind() == Kind.CONFLICT) {
        throw new BackendException(Kind.CONFLICT, "sandbox " + sandbox.name() + " already exists", e);
      }
      throw e;
    }
    bridges.create(sandbox.name(), "default", physical, null, true, true, true);
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
    updateProject(sandbox.name(), cfg -> {
      cfg.put(Meta.EXPIRES_AT, Timestamps.metadata(sandbox.expiresAt()));
      cfg.remove(Meta.PINNED);
      cfg.remove(Meta.PINNED_BY);
      cfg.remove(Meta.PINNED_AT);
      cfg.putAll(metadata(sandbox));
    });
  }

  /** Read-modify-write of a sandbox project's config with its ETag, retried when someone else wrote. */
  void updateProject(String sandbox, Consumer<Map<String, String>> change) {
    String path = "/1.0/projects/" + IncusRest.encode(Meta.project(sandbox));
    for (int attempt = 1; ; attempt++) {
      IncusRest.Tagged current = rest.getTagged(null, path);
      Map<String, String> cfg = new LinkedHashMap<>();
      current.value().path("config").properties().forEach(e -> cfg.put(e.getKey(), e.getValue().asString()));
      change.accept(cfg);
      try {
        rest.call(null, "PUT", path, Map.of("config", cfg,
            "description", current.value().path("description").asString("")), current.etag(),
            java.time.Duration.ofMinutes(1));
        return;
      } catch (BackendException e) {
        if (attempt >= PROJECT_UPDATE_TRIES || !e.getMessage().contains("Precondition")) {
          throw e;
        }
      }
    }
  }

  /** Logical to physical bridge names reserved by a sandbox. */
  Map<String, String> reservations(String sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    try {
      JsonNode cfg = rest.get(null, "/1.0/projects/" + IncusRest.encode(Meta.project(sandbox))).path("config");
      cfg.properties().forEach(e -> {
        if (e.getKey().startsWith(Meta.NETWORK_PREFIX)) {
          result.put(e.getKey().substring(Meta.NETWORK_PREFIX.length()), e.getValue().asString());
        }
      });
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
    return result;
  }

  @Override
  public void deleteSandbox(String name) {
    String project = Meta.project(name);
    boolean projectExists;
    try {
      rest.get(null, "/1.0/projects/" + IncusRest.encode(project));
      projectExists = true;
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
      projectExists = false;
    }
    Map<String, String> owned = new LinkedHashMap<>(reservations(name));
    owned.putAll(bridges.taggedWith(name));
    if (projectExists) {
      for (JsonNode instance : rest.get(project, "/1.0/instances?recursion=1")) {
        instances.forceDelete(project, instance.path("name").asString());
      }
      for (JsonNode image : rest.get(project, "/1.0/images?recursion=1")) {
        ignoreNotFound(() -> rest.call(project, "DELETE", "/1.0/images/" + image.path("fingerprint").asString(), null));
      }
      for (JsonNode profile : rest.get(project, "/1.0/profiles?recursion=1")) {
        String profileName = profile.path("name").asString();
        if (!profileName.equals("default")) {
          ignoreNotFound(() -> rest.call(project, "DELETE", "/1.0/profiles/" + IncusRest.encode(profileName), null));
        }
      }
    }
    for (String physical : owned.values()) {
      bridges.delete(name, physical);
    }
    if (projectExists) {
      ignoreNotFound(() -> rest.call(null, "DELETE", "/1.0/projects/" + IncusRest.encode(project), null));
    } else if (owned.isEmpty()) {
      throw new BackendException(Kind.NOT_FOUND, "sandbox " + name + " not found");
    }
  }

  static void ignoreNotFound(Runnable action) {
    try {
      action.run();
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
  }

  // ---- networks --------------------------------------------------------------------------------

  @Override
  public List<Network> listNetworks(Sandbox sandbox) {
    return bridges.list(sandbox.name());
  }

  @Override
  public Network createNetwork(Sandbox sandbox, NetworkSpec spec) {
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
    String physical = bridges.physicalName(sandbox.name(), name)
        .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
    for (Instance instance : listInstances(sandbox)) {
      if (instance.nics().stream().anyMatch(nic -> nic.network().equals(name))) {
        throw Errors.of(
            "network \"%s\" still has attached NICs in sandbox \"%s\"", name, sandbox.name());
      }
    }
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

  // ---- instances (delegated) -------------------------------------------------------------------

  BridgeNetworks bridges() {
    return bridges;
  }

  @Override
  public List<Instance> listInstances(Sandbox sandbox) {
    return instances.list(sandbox);
  }

  @Override
  public Optional<Instance> getInstance(Sandbox sandbox, String name) {
    return instances.get(sandbox, name);
  }

  @Override
  public Optional<ResolvedImage> publishedImage(Sandbox sandbox, String name) {
    return instances.publishedImage(sandbox, name);
  }

  @Override
  public PendingInstance acceptInstance(Sandbox sandbox, InstanceSpec spec) {
    return instances.accept(sandbox, spec);
  }

  @Override
  public Instance finishInstance(PendingInstance pending) {
    return instances.finish(pending);
  }

  @Override
  public void deleteInstance(Sandbox sandbox, String name) {
    instances.delete(sandbox, name);
  }

  @Override
  public String changeState(Sandbox sandbox, String name, String action, boolean force) {
    return instances.changeState(sandbox, name, action, force);
  }

  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    return instances.exec(sandbox, name, request);
  }

  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    return instances.readFile(sandbox, name, path, limit);
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    instances.writeFile(sandbox, name, path, content, mode);
  }

  @Override
  public void createSnapshot(Sandbox sandbox, String name, String snapshot) {
    instances.createSnapshot(sandbox, name, snapshot);
  }

  @Override
  public void restoreSnapshot(Sandbox sandbox, String name, String snapshot) {
    instances.restoreSnapshot(sandbox, name, snapshot);
  }

  @Override
  public void deleteSnapshot(Sandbox sandbox, String name, String snapshot) {
    instances.deleteSnapshot(sandbox, name, snapshot);
  }

  @Override
  public List<Snapshot> listSnapshots(Sandbox sandbox, String name) {
    return instances.listSnapshots(sandbox, name);
  }

  @Override
  public void publish(Sandbox sandbox, String name, String image, ResolvedImage origin) {
    instances.publish(sandbox, name, image, origin);
  }

  @Override
  public Instance.Nic attachNic(Sandbox sandbox, String instance, String network, String nic, String ip, String mac) {
    return instances.attachNic(sandbox, instance, network, nic, ip, mac);
  }

  @Override
  public void detachNic(Sandbox sandbox, String instance, String nic) {
    instances.detachNic(sandbox, instance, nic);
  }
}
