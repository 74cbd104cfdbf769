package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkAcl;
import dev.agentcompute.incus.NetworkAcls;
import dev.agentcompute.incus.Tagged;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The part of a sandbox bridge's containment that depends on its own subnet, in a second ACL named
 * {@code <bridge>-fence}: rejections of everything its instances may not route to outside their
 * subnet (with NAT the rest of the subnet pool, where every other sandbox and gateway lives;
 * without NAT every address) and of its own gateway. Its own subnet is left out on purpose: when
 * the host has {@code br_netfilter} loaded, traffic between a bridge's own instances also passes
 * the ACL, and a rule covering the subnet would cut them off from each other. A bridge's subnet and
 * the pool never change while it exists, so its fence is written once, with the bridge, and deleted
 * with it.
 */
final class BridgeFence {
  static final String SUFFIX = "-fence";
  private static final Ipv4Cidr EVERYWHERE = Ipv4Cidr.parse("0.0.0.0/0").orElseThrow();

  private final NetworkAcls acls;
  private final SubnetPool pool;

  BridgeFence(NetworkAcls acls, SubnetPool pool) {
    this.acls = acls;
    this.pool = pool;
  }

  static String name(String physical) {
    return physical + SUFFIX;
  }

  /**
   * The fence of a bridge with gateway {@code address} ({@code 10.210.3.1/24}), or empty for a bare
   * L2 bridge (no address: the host neither routes into it nor answers on it).
   */
  static Optional<List<NetworkAcl.Rule>> rules(SubnetPool pool, String address, boolean nat) {
    Optional<Ipv4Cidr> gateway = Ipv4Cidr.parse(address);
    if (gateway.isEmpty()) {
      return Optional.empty();
    }
    Ipv4Cidr own = gateway.get().network();
    List<NetworkAcl.Rule> rules = new ArrayList<>();
    rules.add(BridgeBaseline.reject(new Ipv4Cidr(gateway.get().address(), 32), "own gateway"));
    Ipv4Cidr outer = nat && pool.pool().contains(own.address()) ? pool.pool() : EVERYWHERE;
    for (Ipv4Cidr part : minus(outer, own)) {
      rules.add(
          BridgeBaseline.reject(part, nat ? "sandbox subnet pool" : "no NAT: off the subnet"));
    }
    return Optional.of(rules);
  }

  /** Writes the fence of {@code physical} (created, or rewritten after an earlier attempt). */
  void write(String sandbox, String logical, String physical, String address, boolean nat) {
    Optional<List<NetworkAcl.Rule>> rules = rules(pool, address, nat);
    if (rules.isEmpty()) {
      return;
    }
    String name = name(physical);
    try {
      acls.create(
          new NetworkAcl(
              name,
              "agentcompute: where bridge " + physical + " may not route",
              List.of(),
              rules.get(),
              Meta.tags(sandbox, logical),
              null,
              null));
    } catch (IncusException.Conflict e) {
      Tagged<NetworkAcl> current = acls.getTagged(name);
      if (!sandbox.equals(current.value().config().get(Meta.SANDBOX))) {
        throw e;
      }
      acls.update(current.value().withRules(List.of(), rules.get()), current.etag());
    }
  }

  /** Deletes the fence of {@code physical}; a missing one is fine. */
  void delete(String physical) {
    IncusFailures.ignoreNotFound(() -> acls.delete(name(physical)));
  }

  /**
   * {@code outer} without {@code inner} (which lies inside it), as the fewest CIDRs: at each step
   * down to {@code inner}'s prefix, the half that does not hold it.
   */
  static List<Ipv4Cidr> minus(Ipv4Cidr outer, Ipv4Cidr inner) {
    List<Ipv4Cidr> result = new ArrayList<>();
    Ipv4Cidr current = outer.network();
    while (current.prefix() < inner.prefix()) {
      int prefix = current.prefix() + 1;
      Ipv4Cidr low = new Ipv4Cidr(current.address(), prefix);
      Ipv4Cidr high = new Ipv4Cidr(current.address() | (1 << (32 - prefix)), prefix);
      boolean inLow = low.contains(inner.address());
      result.add(inLow ? high : low);
      current = inLow ? low : high;
    }
    return result;
  }
}
