package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Network;
import dev.agentcompute.incus.Project;
import dev.agentcompute.incus.Tagged;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.regex.Pattern;

/**
 * Bridge sandboxes prepared ahead of {@code sandbox.create} (docs/reference/sandbox-pool.md): a
 * member is a project {@code acpool-<8 hex>} with everything that does not depend on the agent (the
 * restricted project config, the limits, its default bridge on a subnet claimed from the pool).
 * Agents never see one: sandboxes are the projects named {@code ac-<name>}.
 *
 * <p>A claim reserves a member by writing the agent's metadata into it under the cross-server lock
 * {@code pool-claim} ({@link ProjectMutex}; If-Match alone let two servers both reserve one member,
 * since Incus checks the ETag and writes in two transactions: seen in WarmPoolIT, where the loser
 * then discarded the winner's member), retags its bridge, and commits with one project rename to
 * {@code ac-<name>}, which Incus does atomically: a crash before the rename leaves a reserved
 * member no agent sees, which {@link #sweep} deletes; after it, the sandbox is complete. Members
 * are prepared by {@link WarmPoolFiller}; the reaper runs {@link #sweep}.
 */
final class WarmPool {
  private static final Logger LOG = System.getLogger(WarmPool.class.getName());

  /** Unclaimed members older than this are deleted by the sweep (and prepared anew). */
  static final Duration MEMBER_LIFETIME = Duration.ofHours(1);

  /**
   * A reserved member not renamed after this was left by a claim that stopped half-way (a claim
   * takes milliseconds): the sweep deletes it.
   */
  static final Duration CLAIM_ABANDONED = Duration.ofMinutes(2);

  /**
   * A bridge tagged for a pool member whose project does not exist, prepared longer ago than this,
   * is deleted by the sweep. A member's project is created before its bridge and deleted after it,
   * so such a bridge is one whose creation Incus finished after its member's cleanup had run (a
   * preparation cancelled or timed out while Incus was still creating the bridge), or one left by
   * deleting members by hand. The age keeps the sweep off a bridge whose tags it read just before a
   * claim retagged it and renamed its member.
   */
  static final Duration BRIDGE_ORPHANED = Duration.ofMinutes(10);

  /**
   * A member not ready (no {@link Meta#POOL_READY_AT}) this long after its preparation began was
   * left by a preparation that stopped half-way (a server that stopped, or a member of a version
   * that wrote no ready mark): the sweep deletes it. A preparation takes seconds.
   */
  static final Duration PREPARATION_ABANDONED = Duration.ofMinutes(10);

  /** The name of a bridge the Incus backend made ({@code ac<8 hex>}). */
  private static final Pattern BRIDGE_NAME = Pattern.compile("ac[0-9a-f]{8}");

  /** Members a claim tries before falling back to a fresh creation. */
  private static final int CLAIM_ATTEMPTS = 3;

  /** The cross-server lock every reservation takes, in the default project. */
  static final String CLAIM_LOCK = "pool-claim";

  private final IncusClient client;
  private final ProjectMutex mutex;
  private final ComputeConfig config;
  private final BridgeNetworks bridges;
  private final Clock clock;
  private final int size;
  private final String spec;
  private final SecureRandom random = new SecureRandom();
  private final ConcurrentLinkedDeque<String> ready = new ConcurrentLinkedDeque<>();
  private volatile Runnable onClaimed = () -> {};

  /** {@code client} works in the default project; the pool locks with a mutex of its own. */
  WarmPool(
      IncusClient client, ComputeConfig config, BridgeNetworks bridges, Clock clock, int size) {
    this(client, new ProjectMutex(client, clock), config, bridges, clock, size);
  }

  /** {@code mutex} is the server's (its local queue keeps one server's claims off the markers). */
  WarmPool(
      IncusClient client,
      ProjectMutex mutex,
      ComputeConfig config,
      BridgeNetworks bridges,
      Clock clock,
      int size) {
    if (size < 0 || size > ComputeConfig.MAX_WARM_POOL) {
      throw new IllegalArgumentException(
          "sandbox.warm_pool.size must be between 0 and "
              + ComputeConfig.MAX_WARM_POOL
              + ", not "
              + size);
    }
    this.client = client;
    this.mutex = mutex;
    this.config = config;
    this.bridges = bridges;
    this.clock = clock;
    this.size = size;
    this.spec = spec(config);
  }

  int size() {
    return size;
  }

  /** Called after every claim (the filler prepares a replacement). */
  void onClaimed(Runnable listener) {
    this.onClaimed = listener;
  }

  /**
   * What a member must have been prepared with to be claimed under {@code config}: its project
   * config without per-member names, and the subnet pool its bridge came from. Members of a server
   * configured otherwise are never handed out here.
   */
  static String spec(ComputeConfig config) {
    Map<String, String> cfg = new TreeMap<>(IncusSandboxStore.bridgeProject(config, "", ""));
    cfg.put("pool", config.bridgeSubnets().toString());
    cfg.put("member", config.member());
    return HexFormat.of().toHexDigits(cfg.toString().hashCode());
  }

  /**
   * Makes {@code sandbox} out of a pool member; false (nothing changed) when the pool is off, the
   * sandbox is not a bridge sandbox or no member could be taken, and the caller creates it afresh.
   * A CONFLICT backend failure when another server created the name meanwhile.
   */
  boolean claim(Sandbox sandbox) {
    if (size == 0 || sandbox.networkKind() != NetworkKind.BRIDGE) {
      return false;
    }
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      String member = next();
      if (member == null) {
        return false;
      }
      if (!reserve(member, sandbox)) {
        continue;
      }
      commit(member, sandbox);
      onClaimed.run();
      return true;
    }
    return false;
  }

  /** The next member to try, from what the filler prepared, else from Incus. */
  private String next() {
    String member = ready.poll();
    if (member != null) {
      return member;
    }
    ready.addAll(unclaimed());
    return ready.poll();
  }

  /**
   * Writes the agent's metadata into {@code member} under its ETag and points its bridge at the
   * sandbox; false when the member is gone, taken, or not prepared for this configuration. A
   * failure after the metadata write discards the member.
   */
  boolean reserve(String member, Sandbox sandbox) {
    return reserve(member, sandbox, () -> {});
  }

  /** {@link #reserve}, running {@code afterRead} between its read and its write (tests' seam). */
  boolean reserve(String member, Sandbox sandbox, Runnable afterRead) {
    return mutex.locked(
        "default", CLAIM_LOCK, held -> reserveLocked(member, sandbox, afterRead, held));
  }

  private boolean reserveLocked(
      String member, Sandbox sandbox, Runnable afterRead, ProjectMutex.Held held) {
    Tagged<Project> current;
    try {
      current = client.projects().getTagged(member);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return false;
      }
      throw e;
    }
    Map<String, String> cfg = new LinkedHashMap<>(current.value().config());
    if (!spec.equals(cfg.get(Meta.POOL_SPEC))
        || cfg.containsKey(Meta.POOL_CLAIMED_AT)
        || !cfg.containsKey(Meta.POOL_READY_AT)) {
      return false;
    }
    String physical = cfg.getOrDefault(Meta.NETWORK_PREFIX + "default", "");
    cfg.remove(Meta.POOL_SPEC);
    cfg.remove(Meta.POOL_PREPARED_AT);
    cfg.remove(Meta.POOL_READY_AT);
    cfg.put(Meta.HOST, sandbox.member());
    cfg.putAll(SandboxProjects.metadata(sandbox));
    cfg.put(Meta.POOL_CLAIMED_AT, Timestamps.metadata(clock.instant()));
    afterRead.run();
    held.check();
    try {
      client
          .projects()
          .update(
              new Project(member, "agentcompute sandbox " + sandbox.name(), cfg, List.of()),
              current.etag());
    } catch (IncusException.PreconditionFailed e) {
      return false; // another claim reserved it first
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return false;
      }
      throw e;
    }
    try {
      Tagged<Network> bridge = client.networks().getTagged(physical);
      Map<String, String> tags = new LinkedHashMap<>(bridge.value().config());
      tags.remove(Meta.POOL_PREPARED_AT); // a sandbox's bridge, the same as a fresh one's
      tags.putAll(Meta.tags(sandbox.name(), "default"));
      client
          .networks()
          .update(physical, "agentcompute " + sandbox.name() + "/default", tags, bridge.etag());
      return true;
    } catch (RuntimeException e) {
      discardQuietly(member, e);
      return false;
    }
  }

  /**
   * The claim's commit: one rename of the reserved member to the sandbox's project. When the name
   * was taken meanwhile (another server), the member is discarded and the claim fails as a
   * conflict.
   */
  void commit(String member, Sandbox sandbox) {
    try {
      client.projects().rename(member, Meta.project(sandbox.name()));
    } catch (IncusException.Conflict e) {
      discardQuietly(member, e);
      throw new BackendException(Kind.CONFLICT, "sandbox " + sandbox.name() + " already exists", e);
    } catch (RuntimeException e) {
      discardQuietly(member, e);
      throw e;
    }
  }

  /** Unclaimed members prepared for this configuration and ready, oldest first. */
  List<String> unclaimed() {
    List<String> result = new ArrayList<>();
    for (Project project : client.projects().list()) {
      Map<String, String> cfg = project.config();
      if (project.name().startsWith(Meta.POOL_PREFIX)
          && spec.equals(cfg.get(Meta.POOL_SPEC))
          && cfg.containsKey(Meta.POOL_READY_AT)
          && !cfg.containsKey(Meta.POOL_CLAIMED_AT)) {
        result.add(project.name());
      }
    }
    return result;
  }

  /**
   * Prepares members until Incus holds {@link #size} unclaimed ones for this configuration (several
   * servers sharing a configuration share the pool); returns how many it prepared.
   */
  int fill() {
    List<String> members = unclaimed();
    int prepared = 0;
    for (int missing = size - members.size(); missing > 0; missing--) {
      String member = prepare();
      ready.add(member);
      prepared++;
    }
    return prepared;
  }

  /** Prepares one member; a failure half-way deletes what it created. */
  String prepare() {
    String member = Meta.POOL_PREFIX + HexFormat.of().toHexDigits(random.nextInt());
    String physical = bridges.freePhysicalName();
    Map<String, String> cfg = IncusSandboxStore.bridgeProject(config, physical, config.member());
    String preparedAt = Timestamps.metadata(clock.instant());
    cfg.put(Meta.POOL_SPEC, spec);
    cfg.put(Meta.POOL_PREPARED_AT, preparedAt);
    client.projects().create(member, "agentcompute warm pool member", cfg);
    try {
      bridges.create(
          member,
          physical,
          NetworkPlan.sandboxDefault(),
          Map.of(Meta.POOL_PREPARED_AT, preparedAt));
      // Ready only now: a claim that took the member while Incus was still making its bridge
      // retagged a bridge not yet there (and discarded the member, fence and all, under the
      // creation), or handed the agent a sandbox with no bridge.
      client
          .projects()
          .update(
              member,
              current -> {
                Map<String, String> ready = new LinkedHashMap<>(current.config());
                ready.put(Meta.POOL_READY_AT, Timestamps.metadata(clock.instant()));
                return current.withConfig(ready);
              });
    } catch (RuntimeException e) {
      discardQuietly(member, e);
      throw e;
    }
    return member;
  }

  /**
   * Deletes the members nobody will claim: unclaimed ones older than {@link #MEMBER_LIFETIME}
   * (whatever configuration prepared them), ones never made ready within {@link
   * #PREPARATION_ABANDONED}, and reserved ones a claim left before its rename for longer than
   * {@link #CLAIM_ABANDONED}; then the bridges tagged for a member whose project does not exist,
   * prepared more than {@link #BRIDGE_ORPHANED} ago. Returns the members deleted (and the members
   * named by the orphaned bridges deleted).
   */
  List<String> sweep() {
    Instant now = clock.instant();
    List<String> deleted = new ArrayList<>();
    // Network names before projects: a member's project names its bridge before the bridge
    // exists (and keeps naming it once renamed into a sandbox), so a bridge listed here that no
    // project in the later listing names has lost its project, or is a half-made one.
    List<String> networks = client.networks().names();
    List<Project> projects = client.projects().list();
    for (Project project : projects) {
      if (!project.name().startsWith(Meta.POOL_PREFIX)) {
        continue;
      }
      Map<String, String> cfg = project.config();
      boolean reserved = cfg.containsKey(Meta.POOL_CLAIMED_AT);
      boolean ready = cfg.containsKey(Meta.POOL_READY_AT);
      Instant since =
          Timestamps.parseOrEpoch(
              cfg.getOrDefault(reserved ? Meta.POOL_CLAIMED_AT : Meta.POOL_PREPARED_AT, ""));
      Duration limit = reserved ? CLAIM_ABANDONED : ready ? MEMBER_LIFETIME : PREPARATION_ABANDONED;
      if (since.plus(limit).isAfter(now)) {
        continue;
      }
      try {
        discard(project.name());
        deleted.add(project.name());
        LOG.log(
            Level.INFO,
            "warm pool member deleted member="
                + project.name()
                + " reason="
                + (reserved
                    ? "abandoned_claim"
                    : ready ? "unclaimed_for_an_hour" : "abandoned_preparation"));
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "warm pool member delete failed member=" + project.name(), e);
      }
    }
    Set<String> named = new HashSet<>();
    for (Project project : projects) {
      project
          .config()
          .forEach(
              (key, value) -> {
                if (key.startsWith(Meta.NETWORK_PREFIX)) {
                  named.add(value);
                }
              });
    }
    for (String physical : networks) {
      if (!BRIDGE_NAME.matcher(physical).matches() || named.contains(physical)) {
        continue;
      }
      try {
        String member = sweepOrphan(physical, now);
        if (member != null) {
          deleted.add(member);
          LOG.log(
              Level.INFO,
              "warm pool bridge deleted bridge="
                  + physical
                  + " member="
                  + member
                  + " reason=member_project_missing");
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "warm pool bridge delete failed bridge=" + physical, e);
      }
    }
    return deleted;
  }

  /**
   * Deletes {@code physical}, a bridge no project names, when it is tagged for a pool member whose
   * project does not exist (read again now: a claim retags before it renames) and it was prepared
   * more than {@link #BRIDGE_ORPHANED} ago; returns the member, or null when it is kept.
   */
  private String sweepOrphan(String physical, Instant now) {
    Network network =
        IncusFailures.unlessNotFound(() -> client.networks().get(physical)).orElse(null);
    if (network == null) {
      return null;
    }
    String member = network.config().getOrDefault(Meta.SANDBOX, "");
    if (!member.startsWith(Meta.POOL_PREFIX)) {
      return null;
    }
    Instant prepared =
        Timestamps.parseOrEpoch(network.config().getOrDefault(Meta.POOL_PREPARED_AT, ""));
    if (prepared.plus(BRIDGE_ORPHANED).isAfter(now)) {
      return null;
    }
    return deleteOrphan(member, physical) ? member : null;
  }

  /**
   * Deletes the bridge {@code physical} of {@code member}, whose project the sweep did not list,
   * once read again: still tagged for the member (a claim retags before it renames) and the member
   * still missing. False when either changed.
   */
  private boolean deleteOrphan(String member, String physical) {
    if (IncusFailures.unlessNotFound(() -> client.projects().get(member)).isPresent()) {
      return false; // the member exists
    }
    boolean stillTagged =
        IncusFailures.unlessNotFound(() -> client.networks().get(physical))
            .map(again -> member.equals(again.config().get(Meta.SANDBOX)))
            .orElse(false);
    if (!stillTagged) {
      return false;
    }
    bridges.delete(member, physical); // its fence goes too
    return true;
  }

  /** Deletes a member: its bridge (whoever it is tagged for now), fence and project. */
  void discard(String member) {
    ready.remove(member);
    Project project;
    try {
      project = client.projects().get(member);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return;
      }
      throw e;
    }
    String physical = project.config().getOrDefault(Meta.NETWORK_PREFIX + "default", "");
    if (!physical.isEmpty()) {
      String owner = member;
      try {
        owner = client.networks().get(physical).config().getOrDefault(Meta.SANDBOX, member);
      } catch (IncusException e) {
        if (!IncusFailures.isNotFound(e)) {
          throw e;
        }
      }
      bridges.delete(owner, physical); // a missing bridge is fine; its fence goes too
    }
    IncusFailures.ignoreNotFound(() -> client.projects().delete(member));
  }

  private void discardQuietly(String member, RuntimeException failure) {
    try {
      discard(member);
    } catch (RuntimeException cleanup) {
      failure.addSuppressed(cleanup);
    }
  }
}
