package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Network;
import dev.agentcompute.incus.NetworkAcl;
import dev.agentcompute.incus.NetworkState;
import dev.agentcompute.incus.Networks;
import dev.agentcompute.incus.Tagged;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The containment of every sandbox bridge: one Incus network ACL in the default project, named
 * after the subnet pool ({@code agentcompute-baseline-10-210-0-0-16}), that each {@code ac*} bridge
 * of that pool names in {@code security.acls}, rendered by Incus as nftables rules on the host's
 * input, output and forward hooks for that bridge. Its egress rules reject the protected ranges and
 * each IPv4 address of the host outside the pool; each bridge's {@link BridgeFence} rejects the
 * rest of the pool (every other sandbox and gateway) and its own gateway, and the bridge's default
 * action rejects everything arriving from outside. Incus itself lets DHCP, DNS and core ICMP reach
 * the gateway before the ACLs are consulted, so those keep working.
 *
 * <p>Agents cannot add rules to bridges (net.acl.* needs OVN), so nothing widens this baseline.
 * Every configuration generation rewrites it ({@link #apply}), so a reload that changes the
 * protected ranges or the pool takes effect on existing bridges at once.
 */
final class BridgeBaseline {
  static final String DESCRIPTION_PREFIX = "agentcompute:baseline ";

  private final Networks networks;
  private final dev.agentcompute.incus.NetworkAcls acls;
  private final SubnetPool pool;
  private final List<Ipv4Cidr> protectedRanges;

  /** {@code networks} and {@code acls} work in the default project, where sandbox bridges live. */
  BridgeBaseline(
      Networks networks,
      dev.agentcompute.incus.NetworkAcls acls,
      SubnetPool pool,
      List<Ipv4Cidr> protectedRanges) {
    this.networks = networks;
    this.acls = acls;
    this.pool = pool;
    this.protectedRanges = List.copyOf(protectedRanges);
  }

  /**
   * The ACL's name. Servers sharing a pool share it (and so must share their protected ranges);
   * servers with different pools on one Incus (a test suite next to a dev server) keep apart.
   */
  String name() {
    return "agentcompute-baseline-" + pool.pool().toString().replace('.', '-').replace('/', '-');
  }

  /**
   * The containment keys of a sandbox bridge: this baseline and the bridge's fence (when it has
   * one), nothing from outside let in, and egress allowed past their rejections. Egress is never
   * rejected by default, even without NAT: where the host has {@code br_netfilter}, traffic between
   * the bridge's own instances passes the same rules (the fence rejects all else instead).
   */
  Map<String, String> bridgeConfig(String physical, boolean fenced) {
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("security.acls", fenced ? name() + "," + BridgeFence.name(physical) : name());
    cfg.put("security.acls.default.ingress.action", "reject");
    cfg.put("security.acls.default.egress.action", "allow");
    return cfg;
  }

  /**
   * Creates the ACL, or rewrites its rules when they differ from what the configuration and the
   * host's addresses call for (Incus then re-renders every bridge that uses it).
   */
  void apply() {
    write(rules(pool, protectedRanges, hostAddresses()));
  }

  private void write(List<NetworkAcl.Rule> wanted) {
    for (int attempt = 1; ; attempt++) {
      Tagged<NetworkAcl> current;
      try {
        current = acls.getTagged(name());
      } catch (IncusException e) {
        if (!IncusFailures.isNotFound(e)) {
          throw e;
        }
        try {
          acls.create(
              new NetworkAcl(
                  name(),
                  "agentcompute: what no sandbox bridge may reach",
                  List.of(),
                  wanted,
                  Map.of(Meta.VERSION, "1"),
                  null,
                  null));
          return;
        } catch (IncusException.Conflict raced) {
          continue; // another server created it meanwhile: compare with theirs
        }
      }
      if (current.value().egress().equals(wanted) && current.value().ingress().isEmpty()) {
        return;
      }
      try {
        acls.update(current.value().withRules(List.of(), wanted), current.etag());
        return;
      } catch (IncusException e) {
        if (attempt >= 8 || !(e instanceof IncusException.PreconditionFailed)) {
          throw e;
        }
      }
    }
  }

  /**
   * The shared rejections, in a stable order: protected ranges, then each host address outside the
   * pool that no range already covers (addresses inside the pool are sandbox gateways, which each
   * bridge's {@link BridgeFence} rejects: a rule here covering the pool would also cut a bridge's
   * instances off from each other where the host has {@code br_netfilter}).
   */
  static List<NetworkAcl.Rule> rules(
      SubnetPool pool, List<Ipv4Cidr> protectedRanges, List<Ipv4Cidr> hostAddresses) {
    List<NetworkAcl.Rule> rules = new ArrayList<>();
    List<Ipv4Cidr> covered = new ArrayList<>();
    for (Ipv4Cidr range : protectedRanges) {
      rules.add(reject(range.network(), "protected range"));
      covered.add(range.network());
    }
    covered.add(pool.pool());
    Set<Ipv4Cidr> hosts = new LinkedHashSet<>();
    for (Ipv4Cidr address : hostAddresses) {
      Ipv4Cidr host = new Ipv4Cidr(address.address(), 32);
      if (covered.stream().noneMatch(c -> c.overlaps(host))) {
        hosts.add(host);
      }
    }
    hosts.stream()
        .sorted((x, y) -> Integer.compareUnsigned(x.address(), y.address()))
        .forEach(h -> rules.add(reject(h, "host address")));
    return rules;
  }

  /** A rule rejecting {@code destination}, described with the reason (shared with the fences). */
  static NetworkAcl.Rule reject(Ipv4Cidr destination, String why) {
    return NetworkAcl.Rule.of(
        "reject",
        "",
        destination.prefix() == 32 ? destination.addressText() : destination.toString(),
        "",
        "",
        DESCRIPTION_PREFIX + why);
  }

  /**
   * Every IPv4 address of the host as Incus reports it: managed networks' own addresses from their
   * config, other interfaces' from their state. Instance-side interfaces (veth, tap) carry none of
   * the host's addresses and are skipped; the loopback is unreachable from a bridge anyway.
   */
  List<Ipv4Cidr> hostAddresses() {
    List<Ipv4Cidr> result = new ArrayList<>();
    for (Network network : networks.list()) {
      String name = network.name();
      if (name.equals("lo") || name.startsWith("veth") || name.startsWith("tap")) {
        continue;
      }
      if (network.managed()) {
        Ipv4Cidr.parse(network.config().getOrDefault("ipv4.address", "")).ifPresent(result::add);
        continue;
      }
      for (NetworkState.Address a : state(name)) {
        if ("inet".equals(a.family())) {
          Ipv4Cidr.parse(a.address() + "/32").ifPresent(result::add);
        }
      }
    }
    return result;
  }

  private List<NetworkState.Address> state(String name) {
    try {
      return Optional.ofNullable(networks.state(name).addresses()).orElse(List.of());
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return List.of(); // an interface that went away since the listing
      }
      throw e;
    }
  }
}
