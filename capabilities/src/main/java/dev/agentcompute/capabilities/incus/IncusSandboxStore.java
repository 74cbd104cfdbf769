package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Project;
import dev.agentcompute.incus.Tagged;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Sandboxes as restricted Incus projects (docs/reference/capabilities.md#incus-state): creation
 * with the fabric's default network, metadata writes, and deletion in dependency order (instances,
 * images, profiles, bridges, OVN networks, ACLs, the project), so that a failed deletion can simply
 * be run again.
 */
final class IncusSandboxStore implements SandboxStore {
  /** Optimistic writes retried this often when others keep writing (as the original's 8). */
  private static final int UPDATE_ATTEMPTS = 8;

  private final IncusClient client;
  private final ComputeConfig config;
  private final SandboxProjects projects;
  private final BridgeNetworks bridges;
  private final OvnNetworks ovn;
  private final ProjectMutex mutex;
  private final ClusterMembers members;
  private final WarmPool pool;

  IncusSandboxStore(
      IncusClient client,
      ComputeConfig config,
      SandboxProjects projects,
      BridgeNetworks bridges,
      OvnNetworks ovn,
      ProjectMutex mutex,
      ClusterMembers members,
      WarmPool pool) {
    this.members = members;
    this.client = client;
    this.config = config;
    this.projects = projects;
    this.bridges = bridges;
    this.ovn = ovn;
    this.mutex = mutex;
    this.pool = pool;
  }

  @Override
  public Optional<Sandbox> find(String name) {
    return projects.get(name).flatMap(projects::parse);
  }

  @Override
  public List<Sandbox> list() {
    List<Sandbox> result = new ArrayList<>();
    for (Project project : client.projects().list()) {
      projects.parse(project).ifPresent(result::add);
    }
    return result;
  }

  @Override
  public void create(Sandbox sandbox) {
    if (sandbox.networkKind() == NetworkKind.OVN) {
      createOvn(sandbox);
      return;
    }
    if (pool.claim(sandbox)) {
      return;
    }
    String physical = bridges.freePhysicalName();
    Map<String, String> cfg = bridgeProject(config, physical, sandbox.member());
    cfg.putAll(SandboxProjects.metadata(sandbox));
    createProject(sandbox, cfg);
    bridges.create(sandbox.name(), physical, NetworkPlan.sandboxDefault());
  }

  /**
   * The project config of a bridge sandbox without its metadata: restricted, limited, allowed only
   * its own default bridge {@code physical}. A warm pool member is prepared with the same.
   */
  static Map<String, String> bridgeProject(ComputeConfig config, String physical, String member) {
    Map<String, String> cfg = Meta.restrictedProject();
    cfg.putAll(limits(config));
    cfg.put("features.networks", "false");
    cfg.put("restricted.networks.access", physical);
    cfg.put(Meta.HOST, member);
    cfg.put(Meta.NETWORK_PREFIX + "default", physical);
    return cfg;
  }

  /**
   * The OVN fabric: networks live in the project itself, with the configured uplink as the only one
   * allowed.
   */
  private void createOvn(Sandbox sandbox) {
    if (config.ovnUplink().isBlank()) {
      throw Errors.noOvnUplink(); // before the project exists: nothing to undo
    }
    Map<String, String> cfg = Meta.restrictedProject();
    cfg.putAll(limits(config));
    cfg.put("features.networks", "true");
    cfg.put("restricted.networks.uplinks", config.ovnUplink());
    cfg.putAll(SandboxProjects.metadata(sandbox));
    createProject(sandbox, cfg);
    ovn.create(
        sandbox.name(), new NetworkPlan("default", NetworkKind.OVN, "", true, true, true), "");
  }

  /**
   * Incus's own project limits, under the quota checks of the compute services: what holds even if
   * a path around them were found. {@code limits.disk} counts every instance's root disk (which
   * always has a size) and the project's images. {@code limits.processes} is set only when
   * configured: Incus then requires it on every instance, and VMs refuse it.
   */
  static Map<String, String> limits(ComputeConfig config) {
    var quotas = config.quotas();
    Map<String, String> limits = new LinkedHashMap<>();
    limits.put("limits.instances", Integer.toString(quotas.sandboxInstances()));
    limits.put("limits.cpu", Integer.toString(quotas.sandboxCpus()));
    limits.put("limits.memory", quotas.sandboxMemoryMb() + "MiB");
    limits.put("limits.disk", quotas.sandboxDiskGb() + "GiB");
    if (quotas.sandboxProcesses() > 0) {
      limits.put("limits.processes", Integer.toString(quotas.sandboxProcesses()));
    }
    return limits;
  }

  private void createProject(Sandbox sandbox, Map<String, String> cfg) {
    try {
      client
          .projects()
          .create(Meta.project(sandbox.name()), "agentcompute sandbox " + sandbox.name(), cfg);
    } catch (IncusException.Conflict e) {
      throw new BackendException(Kind.CONFLICT, "sandbox " + sandbox.name() + " already exists", e);
    }
  }

  @Override
  public void write(Sandbox sandbox) {
    update(sandbox.name(), ignored -> sandbox);
  }

  /**
   * Read, change, write under the project's {@link ProjectMutex}, so that of two servers changing
   * one sandbox at once (an extend here, a pin there) neither update is lost
   * (docs/reference/capabilities.md#reaper). The write still carries the ETag, and a 412 (a writer
   * that does not take the lock) re-reads and re-applies {@code change}.
   */
  @Override
  public Optional<Sandbox> update(String name, UnaryOperator<Sandbox> change) {
    try {
      return mutex.locked(
          Meta.project(name), "meta", held -> updateHoldingLock(name, change, held));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private Optional<Sandbox> updateHoldingLock(
      String name, UnaryOperator<Sandbox> change, ProjectMutex.Held held) {
    IncusException.PreconditionFailed lost = null;
    for (int attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      Tagged<Project> current = client.projects().getTagged(Meta.project(name));
      Optional<Sandbox> before = projects.parse(current.value());
      if (before.isEmpty()) {
        return before;
      }
      Sandbox after = change.apply(before.get());
      if (after.equals(before.get())) {
        return before;
      }
      Map<String, String> cfg = new LinkedHashMap<>(current.value().config());
      cfg.put(Meta.EXPIRES_AT, Timestamps.metadata(after.expiresAt()));
      cfg.remove(Meta.PINNED);
      cfg.remove(Meta.PINNED_BY);
      cfg.remove(Meta.PINNED_AT);
      cfg.putAll(SandboxProjects.metadata(after));
      held.check();
      try {
        client.projects().update(current.value().withConfig(cfg), current.etag());
        return Optional.of(after);
      } catch (IncusException.PreconditionFailed e) {
        lost = e;
      }
    }
    throw lost;
  }

  /**
   * On a cluster, a sandbox that cannot be deleted whole while a member is away is left whole: an
   * instance on a member that is not Online cannot be deleted, and neither can a bridge (Incus
   * deletes it on every member: "peer node ... is down"). Deleting the rest first would leave half
   * a sandbox. The reaper logs the refusal and retries on its next scan, which succeeds once the
   * member is back (docs/reference/incus-cluster.md#member-failure).
   */
  private void refuseWhileMembersAway(
      String name, List<dev.agentcompute.incus.Instance> instances, boolean bridges) {
    if ((instances.isEmpty() && !bridges) || !members.clustered()) {
      return;
    }
    Map<String, String> statuses = members.statuses();
    for (dev.agentcompute.incus.Instance instance : instances) {
      String member = instance.location() == null ? "" : instance.location();
      String status = statuses.getOrDefault(member, MemberLoad.ONLINE);
      if (!MemberLoad.ONLINE.equalsIgnoreCase(status)) {
        throw away(
            "sandbox \"%s\" has instance \"%s\" on cluster member \"%s\", which is unavailable"
                + " (status %s); it can be deleted when the member is back",
            name, instance.name(), member, status);
      }
    }
    if (bridges) {
      for (Map.Entry<String, String> member : statuses.entrySet()) {
        if (!MemberLoad.ONLINE.equalsIgnoreCase(member.getValue())) {
          throw away(
              "sandbox \"%s\" has a bridge on every cluster member, and member \"%s\" is"
                  + " unavailable (status %s); it can be deleted when the member is back",
              name, member.getKey(), member.getValue());
        }
      }
    }
  }

  private static BackendException away(String format, Object... args) {
    String text = String.format(format, args);
    return new BackendException(Kind.UNAVAILABLE, text, null, text);
  }

  /**
   * Marks the project {@link Meta#DELETING} (with the time), then asks Incus to force-stop each of
   * its running instances without waiting for the stops: agents no longer find the sandbox, and
   * nothing in it runs a moment later. {@link #delete} waits for those stops first. (Waiting here
   * cost 0.7 s of a busybox container's stop on every sandbox.delete.)
   */
  @Override
  public boolean retire(String name) {
    String project = Meta.project(name);
    String now = Timestamps.metadata(java.time.Instant.now());
    client
        .projects()
        .update(
            project,
            current -> {
              Map<String, String> cfg = new LinkedHashMap<>(current.config());
              cfg.putIfAbsent(Meta.DELETING, now);
              return current.withConfig(cfg);
            });
    IncusClient scoped = client.inProject(project);
    List<dev.agentcompute.incus.PendingOperation> pending = new ArrayList<>();
    for (dev.agentcompute.incus.Instance instance : scoped.instances().list()) {
      if (!"Stopped".equals(instance.status())) {
        try {
          pending.add(scoped.instances().changeState(instance.name(), "stop", -1, true));
        } catch (IncusException e) {
          if (!IncusFailures.isNotFound(e)) {
            throw e;
          }
        }
      }
    }
    stopping.put(name, pending);
    return true;
  }

  /** Stops {@link #retire} asked for and {@link #delete} has not waited for yet, by sandbox. */
  private final java.util.concurrent.ConcurrentHashMap<
          String, List<dev.agentcompute.incus.PendingOperation>>
      stopping = new java.util.concurrent.ConcurrentHashMap<>();

  /** Waits for the stops {@link #retire} asked for; a failed one is left to forceDelete. */
  private void awaitStops(String name) {
    List<dev.agentcompute.incus.PendingOperation> pending = stopping.remove(name);
    if (pending == null) {
      return;
    }
    for (dev.agentcompute.incus.PendingOperation stop : pending) {
      try {
        stop.await(dev.agentcompute.capabilities.model.ComputeLimits.STATE_CHANGE_BUDGET);
      } catch (IncusException e) {
        // forceDelete stops it again if it still runs
      }
    }
  }

  @Override
  public List<String> deleting(java.time.Instant before) {
    List<String> result = new ArrayList<>();
    for (Project project : client.projects().list()) {
      String marked = project.config().get(Meta.DELETING);
      if (project.name().startsWith(Meta.PROJECT_PREFIX)
          && marked != null
          && Timestamps.parseOrEpoch(marked).isBefore(before)) {
        result.add(project.name().substring(Meta.PROJECT_PREFIX.length()));
      }
    }
    return result;
  }

  @Override
  public boolean isDeleting(String name) {
    return projects.get(name).map(p -> p.config().containsKey(Meta.DELETING)).orElse(false);
  }

  @Override
  public void delete(String name) {
    awaitStops(name);
    String project = Meta.project(name);
    boolean projectExists = projects.get(name).isPresent();
    // The project's reservations name every bridge it ever had; only when the project is gone
    // (a deletion that stopped half-way) are the bridges found by their tags.
    Map<String, String> owned =
        projectExists ? projects.reservations(name) : bridges.taggedWith(name);
    IncusClient scoped = client.inProject(project);
    if (projectExists) {
      List<dev.agentcompute.incus.Instance> instances = scoped.instances().list();
      refuseWhileMembersAway(name, instances, !owned.isEmpty());
      for (dev.agentcompute.incus.Instance instance : instances) {
        IncusInstanceDriver.forceDelete(scoped, instance.name());
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
      for (dev.agentcompute.incus.Network network : ovn.owned(name)) {
        ovn.delete(name, network.name());
      }
      if (!ovn.owned(name).isEmpty()) {
        throw new BackendException(
            Kind.FAILED, "owned OVN networks still present in sandbox " + name);
      }
      OvnAcls.deleteOwned(scoped, name);
      IncusFailures.ignoreNotFound(() -> client.projects().delete(project));
    } else if (owned.isEmpty()) {
      throw new BackendException(Kind.NOT_FOUND, "sandbox " + name + " not found");
    }
  }
}
