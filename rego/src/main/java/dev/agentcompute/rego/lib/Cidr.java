package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * net.cidr_contains, net.cidr_intersects, net.cidr_expand, net.cidr_merge,
 * net.cidr_contains_matches and net.cidr_is_valid, following OPA (and Go's net package) closely,
 * down to its error texts.
 */
final class Cidr {
  private Cidr() {}

  /** cidr_expand of a network larger than this fails instead of building millions of strings. */
  static final int MAX_EXPAND = 1 << 20;

  static void register(Registry r) {
    r.add("net.cidr_contains", 2, (c, a) -> RegoBoolean.of(contains(net(a, 0), Args.string(a, 1))));
    r.add("net.cidr_intersects", 2, (c, a) -> RegoBoolean.of(intersects(net(a, 0), net(a, 1))));
    r.add("net.cidr_expand", 1, Cidr::expand);
    r.add("net.cidr_merge", 1, (c, a) -> CidrMerge.merge(c, a[0]));
    r.add("net.cidr_contains_matches", 2, Cidr::containsMatches);
    r.add(
        "net.cidr_is_valid",
        1,
        (c, a) ->
            RegoBoolean.of(a[0] instanceof RegoString s && IpNet.parseCidr(s.value()) != null));
  }

  static IpNet net(RegoValue[] a, int i) throws BuiltinError {
    String s = Args.string(a, i);
    IpNet n = IpNet.parseCidr(s);
    if (n == null) {
      throw BuiltinError.of("invalid CIDR address: " + s);
    }
    return n;
  }

  private static boolean contains(IpNet a, String b) throws BuiltinError {
    byte[] ip = IpNet.parseIp(b);
    if (ip != null) {
      return a.contains(ip);
    }
    IpNet nb = IpNet.parseCidr(b);
    if (nb == null) {
      throw BuiltinError.of("not a valid textual representation of an IP address or CIDR: " + b);
    }
    return a.contains(nb.first()) && a.contains(nb.last());
  }

  private static boolean intersects(IpNet a, IpNet b) {
    return a.contains(b.first()) || b.contains(a.first());
  }

  private static RegoValue expand(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    IpNet n = net(a, 0);
    int hostBits = n.bits() - n.prefix();
    if (hostBits > 20) {
      c.charge(1L << Math.min(hostBits, 60));
      throw BuiltinError.of("network " + n + " has too many addresses to expand");
    }
    int count = 1 << hostBits;
    c.charge(count);
    List<RegoValue> out = new ArrayList<>(count);
    BigInteger first = new BigInteger(1, n.first());
    for (int i = 0; i < count; i++) {
      out.add(
          RegoString.of(
              IpNet.format(IpNet.toBytes(first.add(BigInteger.valueOf(i)), n.ip().length))));
    }
    return RegoSet.of(out);
  }

  /** Calls {@code f(cidr, key)} for each element of a contains_matches operand. */
  private interface Each {
    void accept(String cidr, RegoValue key) throws BuiltinError;
  }

  private static void each(int operand, RegoValue v, Each f) throws BuiltinError {
    switch (v) {
      case RegoString s -> f.accept(s.value(), v);
      case RegoArray arr -> {
        for (int i = 0; i < arr.size(); i++) {
          f.accept(matchTerm(operand, arr.get(i)), RegoNumber.of(i));
        }
      }
      case RegoSet set -> {
        for (RegoValue x : set.asList()) {
          f.accept(matchTerm(operand, x), x);
        }
      }
      case RegoObject o -> {
        for (int i = 0; i < o.size(); i++) {
          f.accept(matchTerm(operand, o.value(i)), o.key(i));
        }
      }
      default -> {}
    }
  }

  private static String matchTerm(int operand, RegoValue v) throws BuiltinError {
    if (v instanceof RegoString s) {
      return s.value();
    }
    if (v instanceof RegoArray a && a.size() > 0 && a.get(0) instanceof RegoString s) {
      return s.value();
    }
    throw BuiltinError.of("operand " + operand + ": element must be string or non-empty array");
  }

  private static RegoValue containsMatches(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    List<RegoValue> out = new ArrayList<>();
    each(
        1,
        a[0],
        (cidr1, key1) ->
            each(
                2,
                a[1],
                (cidr2, key2) -> {
                  c.charge(1);
                  IpNet n = IpNet.parseCidr(cidr1);
                  if (n == null) {
                    throw BuiltinError.of("invalid CIDR address: " + cidr1);
                  }
                  if (contains(n, cidr2)) {
                    out.add(RegoArray.of(key1, key2));
                  }
                }));
    return RegoSet.of(out);
  }

  static int compare(byte[] x, byte[] y) {
    return Arrays.compareUnsigned(x, y);
  }
}
