package dev.agentcompute.capabilities.model;

import java.util.List;
import java.util.Optional;

/**
 * What an agent's explicit {@code cidr} may be (docs/reference/capabilities.md#netcreate). A
 * bridge's cidr becomes a route on the host, so it must lie inside the sandbox subnet pool; an OVN
 * network's stays inside OVN, but must still not shadow the management and OOB ranges. Both must be
 * private prefixes with room for instances. Whether a subnet is already in use (by any network, of
 * any sandbox) is checked by the platform under its allocation lock; its text is {@link #inUse}.
 */
public final class CidrRules {
  /** The longest prefix that still leaves addresses for instances. */
  public static final int MAX_PREFIX = 30;

  private static final List<Ipv4Cidr> PRIVATE =
      List.of(cidr("10.0.0.0/8"), cidr("172.16.0.0/12"), cidr("192.168.0.0/16"));

  private CidrRules() {}

  private static Ipv4Cidr cidr(String text) {
    return Ipv4Cidr.parse(text).orElseThrow();
  }

  /** A bridge's {@code ipv4.address}: checked in the order of the texts below. */
  public static Ipv4Cidr bridge(String text, SubnetPool pool, List<Ipv4Cidr> protectedRanges) {
    Ipv4Cidr cidr = Ipv4Cidr.parse(text).orElseThrow(() -> Errors.of("invalid cidr \"%s\"", text));
    roomForHosts(text, cidr);
    if (cidr.equals(cidr.network())) {
      throw Errors.of(
          "cidr \"%s\" is a network address; give the bridge's own address, such as \"%s\"",
          text, cidr.host(1));
    }
    if (cidr.address() == cidr.network().address() + (int) (cidr.size() - 1)) {
      throw Errors.of(
          "cidr \"%s\" is the broadcast address; give the bridge's own address, such as \"%s\"",
          text, cidr.host(1));
    }
    Ipv4Cidr poolCidr = pool.pool();
    if (cidr.prefix() < poolCidr.prefix() || !poolCidr.contains(cidr.address())) {
      throw Errors.of("cidr \"%s\" is outside the sandbox subnet pool %s", text, poolCidr);
    }
    isPrivate(text, cidr);
    outsideProtected(text, cidr, protectedRanges);
    return cidr;
  }

  /** An OVN router's {@code ipv4.address} (already the host address, {@link OvnAddress}). */
  public static Ipv4Cidr ovn(String text, Ipv4Cidr router, List<Ipv4Cidr> protectedRanges) {
    roomForHosts(text, router);
    isPrivate(text, router);
    outsideProtected(text, router, protectedRanges);
    return router;
  }

  /** The text of a subnet another network already has. */
  public static AgentFacingException inUse(String text, Ipv4Cidr used) {
    return Errors.of("cidr \"%s\" overlaps a subnet already in use (%s)", text, used.network());
  }

  /** The first of {@code used} that {@code cidr} overlaps. */
  public static Optional<Ipv4Cidr> firstOverlap(Ipv4Cidr cidr, List<Ipv4Cidr> used) {
    return used.stream().filter(cidr::overlaps).findFirst();
  }

  private static void roomForHosts(String text, Ipv4Cidr cidr) {
    if (cidr.prefix() > MAX_PREFIX) {
      throw Errors.of(
          "cidr \"%s\" leaves no room for instances: use a prefix of /%d or shorter",
          text, MAX_PREFIX);
    }
  }

  private static void isPrivate(String text, Ipv4Cidr cidr) {
    boolean inside =
        PRIVATE.stream().anyMatch(p -> cidr.prefix() >= p.prefix() && p.contains(cidr.address()));
    if (!inside) {
      throw Errors.of(
          "cidr \"%s\" is not a private IPv4 prefix (10.0.0.0/8, 172.16.0.0/12 or"
              + " 192.168.0.0/16)",
          text);
    }
  }

  private static void outsideProtected(String text, Ipv4Cidr cidr, List<Ipv4Cidr> ranges) {
    for (Ipv4Cidr range : ranges) {
      if (cidr.overlaps(range)) {
        throw Errors.of("cidr \"%s\" overlaps the protected range %s", text, range.network());
      }
    }
  }
}
