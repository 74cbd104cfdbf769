package dev.agentcompute.capabilities.config;

import dev.agentcompute.capabilities.net.Ipv4Cidr;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.net.SubnetPool;
import dev.agentcompute.capabilities.sandbox.TtlPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Everything the compute capabilities need from the server's configuration. What the original
 * hard-coded for its site (uplink, OVN range, protected ranges, default member) is configuration here;
 * {@link #defaults()} gives values that work on a single standalone incusd.
 *
 * @param ttl sandbox TTL default and maximum
 * @param pinIdentities subject IDs allowed to pin and unpin (empty disables pinning)
 * @param defaultNetworkKind fabric of new sandboxes ({@code bridge} or {@code ovn})
 * @param member cluster member bridge sandboxes live on ({@code none} names a standalone server)
 * @param storagePool storage pool for instance root disks
 * @param imageProject Incus project catalogue aliases are read from
 * @param catalogFile path of {@code images/catalog.yaml}
 * @param bridgeSubnets pool that every sandbox network (bridge or OVN) without an explicit cidr takes a block from
 * @param ovnUplink uplink network of OVN networks
 * @param ovnRanges external addresses for OVN forwards (CIDR or {@code A-B})
 * @param protectedRanges management and OOB ranges agents may never allow traffic to
 * @param reaperInterval time between reaper scans
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
    Duration reaperInterval) {

  public ComputeConfig {
    pinIdentities = Set.copyOf(pinIdentities);
    protectedRanges = List.copyOf(protectedRanges);
    requireText(member, "member");
    requireText(storagePool, "storage pool");
    requireText(imageProject, "image project");
    if (reaperInterval.isNegative() || reaperInterval.isZero()) {
      throw new IllegalArgumentException("reaper interval must be positive");
    }
  }

  private static void requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
  }

  /** Defaults: TTL 240/1440 min, no pin identities, bridge fabric, 10.210.0.0/16 in /24s. */
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
        "uplink",
        "",
        List.of(Ipv4Cidr.parse("10.10.10.0/24").orElseThrow(), Ipv4Cidr.parse("10.10.70.0/24").orElseThrow()),
        Duration.ofSeconds(30));
  }

  public ComputeConfig withTtl(TtlPolicy value) {
    return new ComputeConfig(value, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withPinIdentities(Set<String> value) {
    return new ComputeConfig(ttl, value, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withMember(String value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, value, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withStoragePool(String value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, value, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withImageProject(String value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, value,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withCatalogFile(Path value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        value, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withBridgeSubnets(SubnetPool value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, value, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  public ComputeConfig withReaperInterval(Duration value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, value);
  }

  public ComputeConfig withDefaultNetworkKind(NetworkKind value) {
    return new ComputeConfig(ttl, pinIdentities, value, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, protectedRanges, reaperInterval);
  }

  /** The Incus uplink network of OVN networks with NAT ({@code sandbox.ovn_uplink}). */
  public ComputeConfig withOvnUplink(String value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, value, ovnRanges, protectedRanges, reaperInterval);
  }

  /** Listen addresses of forwards: a CIDR or {@code A.B.C.D-E.F.G.H}. */
  public ComputeConfig withOvnRanges(String value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, value, protectedRanges, reaperInterval);
  }

  /** Ranges every OVN network drops egress to (baseline) and no allow rule may reach. */
  public ComputeConfig withProtectedRanges(List<Ipv4Cidr> value) {
    return new ComputeConfig(ttl, pinIdentities, defaultNetworkKind, member, storagePool, imageProject,
        catalogFile, bridgeSubnets, ovnUplink, ovnRanges, value, reaperInterval);
  }
}
