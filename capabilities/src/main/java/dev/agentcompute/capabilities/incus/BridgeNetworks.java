package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkSpec;
import dev.agentcompute.incus.Networks;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sandbox bridge networks: default-project bridges named {@code ac<8 hex>} and tagged with their
 * sandbox and logical name. Subnets come from the configured pool through {@link SubnetClaims},
 * which reads the blocks taken from every managed network Incus knows (nothing is lost on restart)
 * and keeps two creations, in this server or another, from keeping the same block. On a cluster a
 * bridge is first defined on every member ({@code POST /1.0/networks?target=<member>}, which leaves
 * it {@code Pending}) and then created once for all of them, by one server at a time ({@link
 * NetworkCreations}; docs/reference/incus-cluster.md#bridge-sandboxes).
 */
final class BridgeNetworks {
  private static final int NAME_ATTEMPTS = 8;
  private static final String PHYSICAL_PREFIX = "ac";

  /** Incus's status of a network defined on every member and created; before that, Pending. */
  private static final String CREATED = "Created";

  private final Networks networks;
  private final java.util.function.Function<String, Networks> onMember;
  private final ClusterMembers members;
  private final SubnetClaims claims;
  private final BridgeBaseline baseline;
  private final BridgeFence fences;
  private final NetworkCreations creations;
  private final SecureRandom random = new SecureRandom();

  /**
   * {@code client} works in the default project, where sandbox bridges live; {@code members} says
   * whether it is a cluster.
   */
  BridgeNetworks(
      IncusClient client,
      ClusterMembers members,
      SubnetClaims claims,
      BridgeBaseline baseline,
      BridgeFence fences,
      NetworkCreations creations) {
    this.networks = client.networks();
    this.onMember = member -> client.onTarget(member).networks();
    this.members = members;
    this.claims = claims;
    this.baseline = baseline;
    this.fences = fences;
    this.creations = creations;
  }

  /** An {@code ac<8 hex>} name no network has yet. */
  String freePhysicalName() {
    for (int i = 0; i < NAME_ATTEMPTS; i++) {
      byte[] bytes = new byte[4];
      random.nextBytes(bytes);
      String name = PHYSICAL_PREFIX + HexFormat.of().formatHex(bytes);
      try {
        networks.get(name);
      } catch (IncusException e) {
        if (IncusFailures.isNotFound(e)) {
          return name;
        }
        throw e;
      }
    }
    throw new BackendException(Kind.FAILED, "unable to allocate a bridge name");
  }

  /**
   * Creates the bridge {@code physical} for {@code plan}. With an explicit {@code plan.cidr()} it
   * is used verbatim; otherwise a network with any of DHCP, NAT or DNS gets the next free block of
   * the pool, and one with none is a bare L2 bridge.
   */
  SandboxNetwork create(String sandbox, String physical, NetworkPlan plan) {
    return create(sandbox, physical, plan, Map.of());
  }

  /**
   * {@link #create(String, String, NetworkPlan)}, with {@code extraTags} added to the bridge's
   * config (a pool member's time).
   */
  SandboxNetwork create(
      String sandbox, String physical, NetworkPlan plan, Map<String, String> extraTags) {
    String cidr = plan.cidr();
    if (!(plan.dhcp() || plan.nat() || plan.dns()) && (cidr == null || cidr.isEmpty())) {
      createBridge(sandbox, physical, plan, "none", extraTags);
      return SandboxNetwork.of(plan.name(), "bridge", "none");
    }
    String address =
        claims.claim(
            cidr,
            new SubnetClaims.Claimant("default", physical),
            a -> {
              createBridge(sandbox, physical, plan, a, extraTags);
              return a;
            },
            () -> {
              IncusRaces.retried(
                  "delete bridge " + physical,
                  () -> IncusFailures.ignoreNotFound(() -> networks.delete(physical)));
              fences.delete(physical);
            });
    return SandboxNetwork.of(plan.name(), "bridge", address);
  }

  private void createBridge(
      String sandbox,
      String physical,
      NetworkPlan plan,
      String address,
      Map<String, String> extraTags) {
    // Every new bridge checks the baseline against the host's addresses as they are now: an
    // interface that appeared since the last bridge (another bridge, a VPN) is rejected from here
    // on.
    baseline.apply();
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("ipv4.address", address);
    cfg.put("ipv4.nat", Boolean.toString(plan.nat()));
    cfg.put("ipv4.dhcp", Boolean.toString(plan.dhcp()));
    cfg.put("ipv6.address", "none");
    cfg.put("dns.mode", plan.dns() ? "managed" : "none");
    boolean fenced = dev.agentcompute.capabilities.model.Ipv4Cidr.parse(address).isPresent();
    cfg.putAll(baseline.bridgeConfig(physical, fenced));
    cfg.putAll(Meta.tags(sandbox, plan.name()));
    cfg.putAll(extraTags);
    NetworkSpec spec = new NetworkSpec(physical, "bridge", description(sandbox, plan.name()), cfg);
    fences.write(sandbox, plan.name(), physical, address, plan.nat());
    try {
      IncusRaces.retried("create bridge " + physical, () -> createOrAdopt(spec, sandbox));
    } catch (RuntimeException e) {
      try {
        if (!exists(physical)) {
          fences.delete(physical);
        }
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private boolean exists(String physical) {
    try {
      networks.get(physical);
      return true;
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Creates the bridge; when an earlier attempt that failed on an Incus race created it after all
   * (a conflict on a name only this sandbox reserved), the bridge is this one. On a cluster the
   * member definitions come first; one that exists already is fine while the network is still
   * pending with this bridge's description (an interrupted attempt resumed), and a created network
   * is adopted on the same terms as above.
   */
  private void createOrAdopt(NetworkSpec spec, String sandbox) {
    if (members.clustered()) {
      NetworkSpec pending = new NetworkSpec(spec.name(), spec.type(), spec.description(), Map.of());
      for (String member : members.names()) {
        try {
          onMember.apply(member).create(pending);
        } catch (IncusException.Conflict e) {
          dev.agentcompute.incus.Network existing = networks.get(spec.name());
          if (CREATED.equals(existing.status())) {
            adopt(existing, sandbox, e);
            return;
          }
          if (!spec.description().equals(existing.description())) {
            throw e; // another creation's pending network under this name
          }
        }
      }
    }
    try {
      // one server at a time on a cluster: two at once on two members wait for each other for good
      creations.onEveryMember(
          () -> {
            networks.create(spec);
            return null;
          });
    } catch (IncusException.Conflict e) {
      adopt(networks.get(spec.name()), sandbox, e);
    } catch (IncusException e) {
      if (members.clustered()) {
        discardFailed(spec.name(), e);
      }
      throw e;
    }
  }

  /**
   * A cluster keeps a network whose creation failed on a member (status Errored, its configuration
   * set) and refuses to create it again with a configuration ("Network already partially created"):
   * it is deleted, so that a retry (after an Incus race, or on another block after a subnet clash)
   * starts afresh. Only this creation defined the name.
   */
  private void discardFailed(String physical, IncusException failure) {
    try {
      IncusRaces.retried(
          "delete failed bridge " + physical,
          () -> IncusFailures.ignoreNotFound(() -> networks.delete(physical)));
    } catch (RuntimeException cleanup) {
      failure.addSuppressed(cleanup);
    }
  }

  private static void adopt(
      dev.agentcompute.incus.Network existing, String sandbox, IncusException.Conflict e) {
    if (!sandbox.equals(existing.config().get(Meta.SANDBOX))) {
      throw e;
    }
  }

  /**
   * The sandbox's bridges, read one by one by their reserved names: one request per bridge of this
   * sandbox, where a scan of every network would grow with every other sandbox's bridges (Incus
   * computes each network's users). A reservation whose bridge is missing or not this sandbox's (a
   * creation in progress, or a half-deleted one) lists nothing.
   */
  List<SandboxNetwork> list(String sandbox, Map<String, String> reservations) {
    List<SandboxNetwork> result = new ArrayList<>();
    reservations.forEach(
        (logical, physical) -> {
          try {
            dev.agentcompute.incus.Network network = networks.get(physical);
            if (sandbox.equals(network.config().get(Meta.SANDBOX))) {
              result.add(
                  SandboxNetwork.of(
                      logical, "bridge", network.config().getOrDefault("ipv4.address", "")));
            }
          } catch (IncusException e) {
            if (!IncusFailures.isNotFound(e)) {
              throw e;
            }
          }
        });
    return result;
  }

  /** The sandbox's bridges by logical name, from the tags on the networks themselves. */
  Map<String, String> taggedWith(String sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    for (dev.agentcompute.incus.Network network : owned(sandbox)) {
      result.put(network.config().getOrDefault(Meta.NAME, ""), network.name());
    }
    return result;
  }

  /**
   * The default project's bridges tagged as this sandbox's (version 1), found by reading each
   * {@code ac*} network: the recovery path for a sandbox whose project (and so its reservations) is
   * gone. Reads go through the reservations ({@link #list(String, Map)}).
   */
  private List<dev.agentcompute.incus.Network> owned(String sandbox) {
    List<dev.agentcompute.incus.Network> result = new ArrayList<>();
    for (String name : networks.names()) {
      if (!name.startsWith(PHYSICAL_PREFIX)) {
        continue;
      }
      try {
        dev.agentcompute.incus.Network n = networks.get(name);
        if (sandbox.equals(n.config().get(Meta.SANDBOX))
            && "1".equals(n.config().get(Meta.VERSION))) {
          result.add(n);
        }
      } catch (IncusException e) {
        if (!IncusFailures.isNotFound(e)) {
          throw e;
        }
      }
    }
    return result;
  }

  private static String description(String sandbox, String logical) {
    return "agentcompute " + sandbox + "/" + logical;
  }

  /** Deletes a bridge after checking it belongs to {@code sandbox}; a missing bridge is fine. */
  void delete(String sandbox, String physical) {
    dev.agentcompute.incus.Network network;
    try {
      network = networks.get(physical);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        fences.delete(physical); // a deletion interrupted between the bridge and its fence
        return;
      }
      throw e;
    }
    String owner = network.config().getOrDefault(Meta.SANDBOX, "");
    // A cluster bridge whose creation stopped before the final step is still Pending and has no
    // config yet: its description says whose it is.
    boolean ownPending =
        !CREATED.equals(network.status())
            && network.description() != null
            && network.description().startsWith(description(sandbox, ""));
    if (!owner.equals(sandbox) && !ownPending) {
      throw new BackendException(
          Kind.FAILED,
          "refusing to modify bridge " + physical + " not owned by sandbox " + sandbox);
    }
    IncusRaces.retried(
        "delete bridge " + physical,
        () -> IncusFailures.ignoreNotFound(() -> networks.delete(physical)));
    fences.delete(physical);
  }
}
