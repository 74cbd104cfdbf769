package dev.agentcompute.capabilities.config;

import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.capabilities.model.TtlPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Everything the compute capabilities need from the server's configuration. What the original
 * hard-coded for its site (uplink, OVN range, protected ranges, default member) is configuration
 * here, with no default: {@link #defaults()} gives values that work on a single standalone incusd
 * and names none of a site's networks (no uplink, no forward range, no protected range).
 *
 * @param ttl sandbox TTL default and maximum
 * @param pinIdentities subject IDs allowed to pin and unpin (empty disables pinning)
 * @param defaultNetworkKind fabric of new sandboxes ({@code bridge} or {@code ovn})
 * @param member cluster member bridge sandboxes live on ({@code none} names a standalone server)
 * @param storagePool storage pool for instance root disks
 * @param imageProject Incus project catalogue aliases are read from
 * @param catalogFile path of {@code images/catalog.yaml}
 * @param bridgeSubnets pool that every sandbox network (bridge or OVN) without an explicit cidr
 *     takes a block from
 * @param ovnUplink uplink network of OVN networks ({@code ""}: none, OVN networks with NAT are
 *     refused)
 * @param ovnRanges external addresses for OVN forwards (CIDR or {@code A-B}; {@code ""}: none,
 *     forwards are refused)
 * @param protectedRanges management and OOB ranges agents may never allow traffic to
 * @param reaperInterval time between reaper scans
 * @param reaperLease how long a server's reaper lease lasts without renewal (several servers on one
 *     Incus: the holder renews it each scan; when it dies another server takes over after this)
 * @param ownerVisibility agents see only the sandboxes they created (sandbox.list, sandbox.get and
 *     the sandbox resources); otherwise every authenticated subject sees every sandbox
 * @param quotas what one instance, sandbox and identity may take
 * @param isolation whether identities reach only their own sandboxes, and who reaches all
 * @param warmPoolSize bridge sandboxes kept prepared for {@code sandbox.create} ({@code
 *     sandbox.warm_pool.size}, 0 to 16; 0 turns the pool off)
 */
public record ComputeConfig(
    TtlPolicy ttl,
    Set<String> pinIdentities,
    NetworkKind defaultNetworkKind,
    String member,
    String storagePool,
    String imageProject,
    Path catalogFile,
    SubnetPool bridgeSubnets,
    String ovnUplink,
    String ovnRanges,
    List<Ipv4Cidr> protectedRanges,
    Duration reaperInterval,
    Duration reaperLease,
    boolean ownerVisibility,
    Quotas quotas,
    Isolation isolation,
    int warmPoolSize) {

  public ComputeConfig {
    pinIdentities = Set.copyOf(pinIdentities);
    protectedRanges = List.copyOf(protectedRanges);
    requireText(member, "member");
    requireText(storagePool, "storage pool");
    requireText(imageProject, "image project");
    if (reaperInterval.isNegative() || reaperInterval.isZero()) {
      throw new IllegalArgumentException("reaper interval must be positive");
    }
    if (reaperLease.compareTo(reaperInterval) <= 0) {
      throw new IllegalArgumentException("reaper lease must be longer than the reaper interval");
    }
    if (warmPoolSize < 0 || warmPoolSize > MAX_WARM_POOL) {
      throw new IllegalArgumentException(
          "sandbox.warm_pool.size must be between 0 and "
              + MAX_WARM_POOL
              + ", not "
              + warmPoolSize);
    }
  }

  /** The largest {@code sandbox.warm_pool.size}. */
  public static final int MAX_WARM_POOL = 16;

  private static void requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
  }

  /**
   * Defaults: TTL 240/1440 min, no pin identities, bridge fabric, 10.210.0.0/16 in /24s, and none
   * of a site's networks.
   */
  public static ComputeConfig defaults() {
    return new ComputeConfig(
        new TtlPolicy(Duration.ofMinutes(240), Duration.ofMinutes(1440)),
        Set.of(),
        NetworkKind.BRIDGE,
        "none",
        "default",
        "default",
        Path.of("images/catalog.yaml"),
        SubnetPool.parse("10.210.0.0/16", 24),
        "",
        "",
        List.of(),
        Duration.ofSeconds(30),
        Duration.ofSeconds(90),
        false,
        Quotas.defaults(),
        Isolation.shared(),
        0);
  }

  /** Owner isolation ({@code sandbox.access}, {@code sandbox.operators}). */
  public ComputeConfig withIsolation(Isolation value) {
    return with(b -> b.isolation = value);
  }

  /** Instance, sandbox and identity quotas ({@code instance.*}, {@code sandbox.*}). */
  public ComputeConfig withQuotas(Quotas value) {
    return with(b -> b.quotas = value);
  }

  public ComputeConfig withTtl(TtlPolicy value) {
    return with(b -> b.ttl = value);
  }

  public ComputeConfig withPinIdentities(Set<String> value) {
    return with(b -> b.pinIdentities = value);
  }

  public ComputeConfig withMember(String value) {
    return with(b -> b.member = value);
  }

  public ComputeConfig withStoragePool(String value) {
    return with(b -> b.storagePool = value);
  }

  public ComputeConfig withImageProject(String value) {
    return with(b -> b.imageProject = value);
  }

  public ComputeConfig withCatalogFile(Path value) {
    return with(b -> b.catalogFile = value);
  }

  public ComputeConfig withBridgeSubnets(SubnetPool value) {
    return with(b -> b.bridgeSubnets = value);
  }

  /** The scan interval; a lease shorter than three scans grows to three (it must outlast one). */
  public ComputeConfig withReaperInterval(Duration value) {
    return with(
        b -> {
          b.reaperInterval = value;
          if (b.reaperLease.compareTo(value) <= 0) {
            b.reaperLease = value.multipliedBy(3);
          }
        });
  }

  public ComputeConfig withReaperLease(Duration value) {
    return with(b -> b.reaperLease = value);
  }

  /** Bridge sandboxes kept prepared ({@code sandbox.warm_pool.size}). */
  public ComputeConfig withWarmPoolSize(int value) {
    return with(b -> b.warmPoolSize = value);
  }

  /** Whether agents see only their own sandboxes ({@code sandbox.visibility: owner}). */
  public ComputeConfig withOwnerVisibility(boolean value) {
    return with(b -> b.ownerVisibility = value);
  }

  public ComputeConfig withDefaultNetworkKind(NetworkKind value) {
    return with(b -> b.defaultNetworkKind = value);
  }

  /** The Incus uplink network of OVN networks with NAT ({@code sandbox.ovn_uplink}). */
  public ComputeConfig withOvnUplink(String value) {
    return with(b -> b.ovnUplink = value);
  }

  /** Listen addresses of forwards: a CIDR or {@code A.B.C.D-E.F.G.H}. */
  public ComputeConfig withOvnRanges(String value) {
    return with(b -> b.ovnRanges = value);
  }

  /** Ranges every OVN network drops egress to (baseline) and no allow rule may reach. */
  public ComputeConfig withProtectedRanges(List<Ipv4Cidr> value) {
    return with(b -> b.protectedRanges = value);
  }

  /**
   * A copy with one change: every wither goes through here, so the field list lives in one place.
   */
  private ComputeConfig with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /**
   * The mutable copy {@link #with} changes; its constructor and {@link #build} list every field
   * once.
   */
  private static final class Copy {
    TtlPolicy ttl;
    Set<String> pinIdentities;
    NetworkKind defaultNetworkKind;
    String member;
    String storagePool;
    String imageProject;
    Path catalogFile;
    SubnetPool bridgeSubnets;
    String ovnUplink;
    String ovnRanges;
    List<Ipv4Cidr> protectedRanges;
    Duration reaperInterval;
    Duration reaperLease;
    boolean ownerVisibility;
    Quotas quotas;
    Isolation isolation;
    int warmPoolSize;

    Copy(ComputeConfig c) {
      ttl = c.ttl;
      pinIdentities = c.pinIdentities;
      defaultNetworkKind = c.defaultNetworkKind;
      member = c.member;
      storagePool = c.storagePool;
      imageProject = c.imageProject;
      catalogFile = c.catalogFile;
      bridgeSubnets = c.bridgeSubnets;
      ovnUplink = c.ovnUplink;
      ovnRanges = c.ovnRanges;
      protectedRanges = c.protectedRanges;
      reaperInterval = c.reaperInterval;
      reaperLease = c.reaperLease;
      ownerVisibility = c.ownerVisibility;
      quotas = c.quotas;
      isolation = c.isolation;
      warmPoolSize = c.warmPoolSize;
    }

    ComputeConfig build() {
      return new ComputeConfig(
          ttl,
          pinIdentities,
          defaultNetworkKind,
          member,
          storagePool,
          imageProject,
          catalogFile,
          bridgeSubnets,
          ovnUplink,
          ovnRanges,
          protectedRanges,
          reaperInterval,
          reaperLease,
          ownerVisibility,
          quotas,
          isolation,
          warmPoolSize);
    }
  }
}
