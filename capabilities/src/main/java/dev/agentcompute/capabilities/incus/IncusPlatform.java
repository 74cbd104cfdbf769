package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformFeature;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.ovn.OvnNorthbound;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The Incus platform: a sandbox is a restricted project {@code ac-<name>} whose config carries all
 * of its state (expiry, pin, owner, member, network reservations), so a restarted service sees
 * exactly what the previous one left. Bridge networks live in the default project under opaque
 * names and take an explicit subnet from the configured pool; OVN networks live in the project.
 * This class wires the drivers over one client; every port it hands out translates incus-client's
 * failures once, by type ({@link IncusPorts}).
 */
public final class IncusPlatform implements AutoCloseable {
  /** The platform name Incus sandboxes report. */
  public static final String NAME = "incus";

  /**
   * What Incus sandboxes do that others do not: a project's limits cap container processes, and a
   * new instance is listed only inside its create operation.
   */
  static final Set<PlatformFeature> FEATURES =
      Set.of(PlatformFeature.PROJECT_PROCESS_LIMITS, PlatformFeature.LISTED_AFTER_ACCEPT);

  /**
   * How long one background operation (image copy, instance creation, deletion) may take; the
   * client's default of 5 minutes is shorter than the budget the original gave creations.
   */
  static final Duration OPERATION_BUDGET = Duration.ofMinutes(10);

  private final IncusClient client;
  private final boolean ownsClient;
  private final ComputeConfig config;
  private final Optional<OvnNorthbound> northbound;
  private final Platform platform;
  private final ProjectMutex mutex;
  private final BridgeBaseline baseline;
  private final WarmPoolFiller warmPool;

  private IncusPlatform(
      IncusClient client,
      boolean ownsClient,
      ComputeConfig config,
      Optional<OvnNorthbound> northbound) {
    this.client = client.inProject(null);
    this.ownsClient = ownsClient;
    this.config = config;
    this.northbound = northbound;
    this.mutex = new ProjectMutex(this.client, Clock.systemUTC());
    SandboxProjects projects = new SandboxProjects(this.client, config.member());
    SubnetClaims claims =
        new SubnetClaims(this.client.networks(), config.bridgeSubnets(), config.ovnUplink());
    this.baseline =
        new BridgeBaseline(
            this.client.networks(),
            this.client.networkAcls(),
            config.bridgeSubnets(),
            config.protectedRanges());
    ClusterMembers members = new ClusterMembers(this.client);
    NetworkCreations creations = new NetworkCreations(members, mutex);
    BridgeNetworks bridges =
        new BridgeNetworks(
            this.client,
            members,
            claims,
            baseline,
            new BridgeFence(this.client.networkAcls(), config.bridgeSubnets()),
            creations);
    OvnAcls acls = new OvnAcls(config.protectedRanges());
    OvnNetworks ovn = new OvnNetworks(this.client, config.ovnUplink(), acls, claims, creations);
    this.warmPool =
        new WarmPoolFiller(
            new WarmPool(
                this.client, mutex, config, bridges, Clock.systemUTC(), config.warmPoolSize()));
    NetworkNames names = new NetworkNames(projects, ovn);
    InstanceReader reader = new InstanceReader(this.client, names, members);
    this.platform =
        new Platform(
            NAME,
            this::ready,
            new IncusPorts.Sandboxes(
                new IncusSandboxStore(
                    this.client, config, projects, bridges, ovn, mutex, members, warmPool.pool())),
            new IncusPorts.Instances(
                new IncusInstanceDriver(
                    this.client, config, projects, reader, names, new ClusterPlacement(members))),
            new IncusPorts.Snapshots(new IncusSnapshotDriver(reader)),
            Optional.of(new IncusPorts.Images(new IncusImageDriver(this.client, config, reader))),
            Optional.of(
                new IncusPorts.Networks(
                    new IncusNetworkDriver(projects, bridges, ovn, reader, names))),
            Optional.of(
                new IncusPorts.Fabric(
                    new IncusOvnFabric(
                        ovn,
                        acls,
                        new OvnForwards(this.client, config.ovnRanges(), northbound),
                        new NorthboundInspector(northbound),
                        reader))),
            Optional.of(new IncusPorts.Files(new IncusFileDriver(reader))),
            Optional.of(new IncusPorts.Processes(new IncusProcessDriver(reader))),
            FEATURES);
  }

  /**
   * The platform over the incusd listening on {@code socket}. Does not contact it yet; closes its
   * client.
   */
  public static IncusPlatform overUnixSocket(Path socket, ComputeConfig config) {
    return new IncusPlatform(
        IncusClient.unixSocket(socket).operationTimeout(OPERATION_BUDGET).build(),
        true,
        config,
        Optional.empty());
  }

  /**
   * The platform over a client the caller built (e.g. {@code IncusClient.https(...)} for a remote
   * daemon, or one with an {@code onCall} observer). Its project and target are ignored: sandboxes
   * pick their own projects. The caller keeps ownership: {@link #close()} does not close it.
   */
  public static IncusPlatform over(IncusClient client, ComputeConfig config) {
    return new IncusPlatform(client, false, config, Optional.empty());
  }

  /**
   * As {@link #over(IncusClient, ComputeConfig)}, with the OVN northbound database: readiness then
   * includes its connection, forward allocation skips addresses its NAT rules and load-balancer
   * VIPs hold, and net.inspect reads from it. The caller keeps ownership of both.
   */
  public static IncusPlatform over(
      IncusClient client, ComputeConfig config, OvnNorthbound northbound) {
    return new IncusPlatform(client, false, config, Optional.of(northbound));
  }

  /**
   * Writes the bridge containment ACL for this configuration (its protected ranges, pool and the
   * host's addresses now) into Incus: every existing sandbox bridge follows at once. Each
   * configuration generation calls it; a platform that never does writes it before its first
   * bridge.
   */
  public void applyBridgeBaseline() {
    IncusFailures.translated(baseline::apply);
  }

  /**
   * The reaper lease for several servers sharing this Incus
   * (docs/reference/capabilities.md#reaper).
   */
  public ReaperLease reaperLease() {
    return new IncusPorts.Lease(new IncusReaperLease(client, mutex));
  }

  /**
   * The warm pool of prepared bridge sandboxes (docs/reference/sandbox-pool.md): start its filler
   * with the reaper, and let the reaper run its sweep.
   */
  public WarmPoolFiller warmPool() {
    return warmPool;
  }

  /** The ports the compute services call. */
  public Platform platform() {
    return platform;
  }

  /** True when incusd answers, the storage pool and image project exist, and OVN (if any) is up. */
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
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }
}
