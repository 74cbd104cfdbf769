package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.FileDriver;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.capabilities.platform.OvnFabric;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.ovn.OvnNorthbound;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The Incus platform: a sandbox is a restricted project {@code ac-<name>} whose config carries all
 * of its state (expiry, pin, owner, member, network reservations), so a restarted service sees
 * exactly what the previous one left. Bridge networks live in the default project under opaque
 * names and take an explicit subnet from the configured pool; OVN networks live in the project.
 * This class wires the drivers over one client; every port it hands out translates incus-client's
 * failures ({@link IncusFailures#translating}).
 */
public final class IncusPlatform implements AutoCloseable {
  /** The platform name Incus sandboxes report. */
  public static final String NAME = "incus";

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
    BridgeNetworks bridges =
        new BridgeNetworks(
            this.client.networks(),
            claims,
            baseline,
            new BridgeFence(this.client.networkAcls(), config.bridgeSubnets()));
    OvnAcls acls = new OvnAcls(config.protectedRanges());
    OvnNetworks ovn = new OvnNetworks(this.client, config.ovnUplink(), acls, claims);
    this.warmPool =
        new WarmPoolFiller(
            new WarmPool(this.client, config, bridges, Clock.systemUTC(), config.warmPoolSize()));
    NetworkNames names = new NetworkNames(projects, ovn);
    InstanceReader reader = new InstanceReader(this.client, names);
    this.platform =
        new Platform(
            NAME,
            this::ready,
            IncusFailures.translating(
                SandboxStore.class,
                new IncusSandboxStore(
                    this.client, config, projects, bridges, ovn, mutex, warmPool.pool())),
            IncusFailures.translating(
                InstanceDriver.class,
                new IncusInstanceDriver(this.client, config, projects, reader, names)),
            IncusFailures.translating(SnapshotDriver.class, new IncusSnapshotDriver(reader)),
            Optional.of(
                IncusFailures.translating(
                    ImageDriver.class, new IncusImageDriver(this.client, config, reader))),
            Optional.of(
                IncusFailures.translating(
                    NetworkDriver.class,
                    new IncusNetworkDriver(projects, bridges, ovn, reader, names))),
            Optional.of(
                IncusFailures.translating(
                    OvnFabric.class,
                    new IncusOvnFabric(
                        ovn,
                        acls,
                        new OvnForwards(this.client, config.ovnRanges(), northbound),
                        new NorthboundInspector(northbound),
                        reader))),
            Optional.of(IncusFailures.translating(FileDriver.class, new IncusFileDriver(reader))));
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
    IncusFailures.translating(Runnable.class, baseline::apply).run();
  }

  /**
   * The reaper lease for several servers sharing this Incus
   * (docs/reference/capabilities.md#reaper).
   */
  public ReaperLease reaperLease() {
    return IncusFailures.translating(ReaperLease.class, new IncusReaperLease(client, mutex));
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
