package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.CidrRules;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkAllocation;
import dev.agentcompute.incus.Networks;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Subnets for sandbox networks (bridges and OVN networks alike), claimed safely against other
 * servers on the same Incus. Incus itself accepts two bridges with one subnet (it only fails when
 * both run dnsmasq on the same gateway, {@code Address already in use}), and another server's lock
 * is out of reach, so a claim is made and then checked: create the network with a free block, read
 * every allocation again, and if another network now overlaps it, delete ours and try another
 * block. Of two networks created on one block, the one checked later always sees the other, so at
 * most one keeps it; both may yield, and a retry picks a random free block so they part. The lock
 * keeps this server's own creations in order.
 */
final class SubnetClaims {
  private static final Logger LOG = System.getLogger(SubnetClaims.class.getName());
  static final int ATTEMPTS = 8;

  private final Networks networks;
  private final SubnetPool pool;
  private final String uplink;
  private final ReentrantLock lock = new ReentrantLock();

  /** {@code networks} works in the default project; allocations are read across all projects. */
  SubnetClaims(Networks networks, SubnetPool pool, String uplink) {
    this.networks = networks;
    this.pool = pool;
    this.uplink = uplink;
  }

  /** The network a claim is for: its name and project, as Incus names it in allocations. */
  record Claimant(String project, String network) {
    boolean owns(NetworkAllocation allocation) {
      String usedBy = allocation.usedBy() == null ? "" : allocation.usedBy();
      String prefix = "/1.0/networks/" + network;
      if (!usedBy.startsWith(prefix)) {
        return false;
      }
      String rest = usedBy.substring(prefix.length());
      String project = "default";
      if (rest.startsWith("?")) {
        for (String param : rest.substring(1).split("&")) {
          if (param.startsWith("project=")) {
            project = param.substring("project=".length());
          }
        }
      } else if (!rest.isEmpty()) {
        return false; // another network whose name starts with ours
      }
      return project.equals(this.project);
    }
  }

  /**
   * Creates a network on a subnet: {@code explicit} when given (refused when it overlaps one in
   * use), else a free block of the pool. {@code create} builds the network on the address it is
   * given; {@code undo} deletes it again when another network turns out to hold an overlapping
   * subnet.
   */
  <T> T claim(String explicit, Claimant self, Function<String, T> create, Runnable undo) {
    boolean chosen = explicit == null || explicit.isEmpty();
    for (int attempt = 1; ; attempt++) {
      lock.lock();
      try {
        List<Ipv4Cidr> used = usedSubnets(self);
        String address = chosen ? choose(used, attempt).toString() : requireUnused(explicit, used);
        T made;
        try {
          made = create.apply(address);
        } catch (IncusException e) {
          if (!chosen || !isAddressClash(e) || attempt >= ATTEMPTS) {
            throw e;
          }
          LOG.log(Level.DEBUG, "{0} was taken meanwhile ({1}); trying another block", address, e);
          continue;
        }
        // Only another network can have taken the block meanwhile; the uplink's subnets were
        // among those the choice avoided and do not change.
        Optional<Ipv4Cidr> rival =
            CidrRules.firstOverlap(Ipv4Cidr.parse(address).orElseThrow(), allocatedSubnets(self));
        if (rival.isEmpty()) {
          return made;
        }
        undo.run();
        if (!chosen) {
          throw CidrRules.inUse(explicit, rival.get());
        }
        if (attempt >= ATTEMPTS) {
          throw Errors.of(
              "no subnet of the pool %s could be claimed: other servers took each of %d blocks"
                  + " tried",
              pool.pool(), ATTEMPTS);
        }
        LOG.log(
            Level.DEBUG,
            "{0} of {1} overlaps {2}, claimed meanwhile; trying another block",
            address,
            self.network(),
            rival.get());
      } finally {
        lock.unlock();
      }
      // Out of step with the server we collided with, so the next choices differ.
      Cancellation.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextInt(10, 100)));
    }
  }

  /** The first free block on a first attempt; a random free one after a collision. */
  private Ipv4Cidr choose(List<Ipv4Cidr> used, int attempt) {
    Optional<Ipv4Cidr> block =
        attempt == 1 ? pool.firstFree(used) : pool.randomFree(used, ThreadLocalRandom.current());
    return block.orElseThrow(
        () -> Errors.of("no free subnet remains in the sandbox subnet pool %s", pool.pool()));
  }

  /**
   * An agent's explicit subnet must not overlap any network's: a bridge's subnet is a route on the
   * host, and another sandbox's must stay out of reach.
   */
  private static String requireUnused(String cidr, List<Ipv4Cidr> used) {
    Ipv4Cidr wanted =
        Ipv4Cidr.parse(cidr).orElseThrow(() -> Errors.of("invalid cidr \"%s\"", cidr));
    CidrRules.firstOverlap(wanted, used)
        .ifPresent(
            taken -> {
              throw CidrRules.inUse(cidr, taken);
            });
    return cidr;
  }

  /** dnsmasq of another bridge already listens on the gateway address. */
  static boolean isAddressClash(IncusException e) {
    return String.valueOf(e.getMessage()).contains("Address already in use");
  }

  /**
   * Every IPv4 subnet in use but {@code self}'s: each managed network's, in every project, from
   * Incus' address allocations, plus the OVN uplink's gateway subnet and routes. (Listing the
   * networks themselves with their state takes Incus 20 s and more once 50 sandboxes exist; the
   * allocations answer in well under a second.)
   */
  private List<Ipv4Cidr> usedSubnets(Claimant self) {
    List<Ipv4Cidr> used = allocatedSubnets(self);
    if (uplink.isBlank()) {
      return used; // no OVN uplink at this site
    }
    try {
      Map<String, String> cfg = networks.get(uplink).config();
      for (String key : List.of("ipv4.gateway", "ipv4.routes", "ipv4.address")) {
        for (String value : cfg.getOrDefault(key, "").split(",")) {
          Ipv4Cidr.parse(value.trim()).ifPresent(used::add);
        }
      }
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    return used;
  }

  /** The subnets of every managed network but {@code self}'s, from Incus' address allocations. */
  private List<Ipv4Cidr> allocatedSubnets(Claimant self) {
    List<Ipv4Cidr> used = new ArrayList<>();
    for (NetworkAllocation allocation : networks.allocations(true)) {
      String address = allocation.address() == null ? "" : allocation.address();
      if (address.contains("/") && !self.owns(allocation)) {
        Ipv4Cidr.parse(address.trim()).ifPresent(used::add);
      }
    }
    return used;
  }
}
