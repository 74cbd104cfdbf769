package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import dev.agentcompute.capabilities.compute.Errors;
import dev.agentcompute.capabilities.compute.Network;
import dev.agentcompute.capabilities.net.Ipv4Cidr;
import dev.agentcompute.capabilities.net.SubnetPool;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Networks;
import dev.agentcompute.incus.NetworkSpec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sandbox bridge networks: default-project bridges named {@code ac<8 hex>} and tagged with their
 * sandbox and logical name. Subnets come from the configured pool; which blocks are taken is read
 * from every managed network Incus knows, so nothing is lost on restart. One lock spans reading the
 * used blocks and creating the network, so two concurrent creations never pick the same block.
 */
final class BridgeNetworks {
  private static final int NAME_ATTEMPTS = 8;

  private final Networks networks;
  private final SubnetPool pool;
  private final SecureRandom random = new SecureRandom();
  private final ReentrantLock allocation = new ReentrantLock();

  /** {@code networks} works in the default project, where sandbox bridges live. */
  BridgeNetworks(Networks networks, SubnetPool pool) {
    this.networks = networks;
    this.pool = pool;
  }

  /** An {@code ac<8 hex>} name no network has yet. */
  String freePhysicalName() {
    for (int i = 0; i < NAME_ATTEMPTS; i++) {
      byte[] bytes = new byte[4];
      random.nextBytes(bytes);
      String name = "ac" + HexFormat.of().formatHex(bytes);
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
   * Creates a bridge. With an explicit {@code cidr} it is used verbatim; otherwise a network with any
   * of DHCP, NAT or DNS gets the next free block of the pool, and one with none is a bare L2 bridge.
   */
  Network create(String sandbox, String logical, String physical, String cidr, boolean dhcp, boolean nat,
      boolean dns) {
    allocation.lock();
    try {
      String address;
      if (cidr != null && !cidr.isEmpty()) {
        address = cidr;
      } else if (dhcp || nat || dns) {
        address = pool.firstFree(usedSubnets())
            .orElseThrow(() -> Errors.of("no free subnet remains in the sandbox subnet pool %s", pool.pool()))
            .toString();
      } else {
        address = "none";
      }
      Map<String, String> cfg = new LinkedHashMap<>();
      cfg.put("ipv4.address", address);
      cfg.put("ipv4.nat", Boolean.toString(nat));
      cfg.put("ipv4.dhcp", Boolean.toString(dhcp));
      cfg.put("ipv6.address", "none");
      cfg.put("dns.mode", dns ? "managed" : "none");
      cfg.putAll(Meta.tags(sandbox, logical));
      networks.create(new NetworkSpec(physical, "bridge", "agentcompute " + sandbox + "/" + logical, cfg));
      return Network.of(logical, "bridge", address);
    } finally {
      allocation.unlock();
    }
  }

  /**
   * Runs {@code create} with {@code explicit} when given, else with the next free block of the pool,
   * under the allocation lock (OVN networks take their subnets from the same pool as bridges).
   */
  <T> T withSubnet(String explicit, java.util.function.Function<String, T> create) {
    allocation.lock();
    try {
      String address = explicit != null && !explicit.isEmpty() ? explicit
          : pool.firstFree(usedSubnets())
              .orElseThrow(() -> Errors.of("no free subnet remains in the sandbox subnet pool %s", pool.pool()))
              .toString();
      return create.apply(address);
    } finally {
      allocation.unlock();
    }
  }

  /** Every IPv4 subnet of every managed network, in every project. */
  private List<Ipv4Cidr> usedSubnets() {
    List<Ipv4Cidr> used = new ArrayList<>();
    for (dev.agentcompute.incus.Network network : networks.listAllProjects()) {
      for (String key : List.of("ipv4.address", "volatile.network.ipv4.address", "ipv4.routes")) {
        for (String value : network.config().getOrDefault(key, "").split(",")) {
          Ipv4Cidr.parse(value.trim()).ifPresent(used::add);
        }
      }
    }
    return used;
  }

  /** The sandbox's bridges by logical name, from the tags on the networks themselves. */
  Map<String, String> taggedWith(String sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    for (dev.agentcompute.incus.Network network : owned(sandbox)) {
      result.put(network.config().getOrDefault(Meta.NAME, ""), network.name());
    }
    return result;
  }

  List<Network> list(String sandbox) {
    List<Network> result = new ArrayList<>();
    for (dev.agentcompute.incus.Network network : owned(sandbox)) {
      result.add(Network.of(network.config().getOrDefault(Meta.NAME, ""), "bridge",
          network.config().getOrDefault("ipv4.address", "")));
    }
    return result;
  }

  /** The default project's networks tagged as this sandbox's (version 1). */
  private List<dev.agentcompute.incus.Network> owned(String sandbox) {
    return networks.list().stream()
        .filter(n -> sandbox.equals(n.config().get(Meta.SANDBOX)) && "1".equals(n.config().get(Meta.VERSION)))
        .toList();
  }

  Optional<String> physicalName(String sandbox, String logical) {
    return Optional.ofNullable(taggedWith(sandbox).get(logical));
  }

  /** Deletes a bridge after checking it belongs to {@code sandbox}; a missing bridge is fine. */
  void delete(String sandbox, String physical) {
    dev.agentcompute.incus.Network network;
    try {
      network = networks.get(physical);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return;
      }
      throw e;
    }
    String owner = network.config().getOrDefault(Meta.SANDBOX, "");
    if (!owner.equals(sandbox)) {
      throw new BackendException(Kind.FAILED,
          "refusing to modify bridge " + physical + " not owned by sandbox " + sandbox);
    }
    IncusFailures.ignoreNotFound(() -> networks.delete(physical));
  }
}
