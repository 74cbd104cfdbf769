package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code net.cidr_merge}: the smallest list of networks covering the given addresses and networks
 * (OPA's port of the netaddr algorithm). A bare IPv4 address gets its classful default mask, as
 * Go's {@code net.IP.DefaultMask} gives it; a bare IPv6 address is an error.
 */
final class CidrMerge {
  private CidrMerge() {}

  /** One input network or merged range; {@code text} is null once merged. */
  private record Range(byte[] first, byte[] last, String text) {}

  static RegoValue merge(BuiltinContext c, RegoValue operand) throws BuiltinError {
    List<RegoValue> elems =
        switch (operand) {
          case RegoArray a -> a.asList();
          case RegoSet s -> s.asList();
          default -> throw BuiltinError.of("operand must be an array");
        };
    c.charge(elems.size());
    List<Range> ranges = new ArrayList<>();
    for (RegoValue e : elems) {
      ranges.add(range(e));
    }
    ranges.sort(
        (x, y) -> {
          int cmp = Cidr.compare(x.last(), y.last());
          return cmp != 0 ? cmp : Cidr.compare(x.first(), y.first());
        });
    for (int i = ranges.size() - 1; i > 0; i--) {
      Range cur = ranges.get(i);
      Range prev = ranges.get(i - 1);
      if (Cidr.compare(previous(cur.first()), prev.last()) <= 0) {
        byte[] first = Cidr.compare(prev.first(), cur.first()) < 0 ? prev.first() : cur.first();
        ranges.set(i - 1, new Range(first, cur.last(), null));
        ranges.remove(i);
      }
    }
    List<RegoValue> out = new ArrayList<>();
    for (Range r : ranges) {
      if (r.text() != null) {
        out.add(RegoString.of(r.text()));
      } else {
        for (String cidr : toCidrs(r.first(), r.last())) {
          out.add(RegoString.of(cidr));
        }
      }
    }
    return RegoSet.of(out);
  }

  private static Range range(RegoValue e) throws BuiltinError {
    if (!(e instanceof RegoString s)) {
      throw BuiltinError.of("element must be string");
    }
    byte[] ip = IpNet.parseIp(s.value());
    if (ip != null) {
      if (ip.length == 16 && IpNet.isV4Mapped(ip)) {
        ip = java.util.Arrays.copyOfRange(ip, 12, 16);
      }
      if (ip.length != 4) {
        throw BuiltinError.of("IPv6 invalid: needs prefix length");
      }
      int prefix = defaultMask(ip);
      IpNet n = new IpNet(IpNet.mask(ip, prefix), prefix);
      return new Range(n.first(), n.last(), IpNet.format(ip) + "/" + prefix);
    }
    IpNet n = IpNet.parseCidr(s.value());
    if (n == null) {
      throw BuiltinError.of("invalid CIDR address: " + s.value());
    }
    return new Range(n.first(), n.last(), n.toString());
  }

  /** Classful default: class A /8, class B /16, class C (and above) /24. */
  private static int defaultMask(byte[] ip) {
    int b = ip[0] & 0xff;
    return b < 0x80 ? 8 : b < 0xc0 ? 16 : 24;
  }

  private static byte[] previous(byte[] ip) {
    BigInteger v = new BigInteger(1, ip);
    if (v.signum() == 0) {
      return ip;
    }
    return IpNet.toBytes(v.subtract(BigInteger.ONE), ip.length);
  }

  /** The fewest aligned networks exactly covering {@code [first, last]}. */
  static List<String> toCidrs(byte[] firstIp, byte[] lastIp) {
    int bits = firstIp.length * 8;
    BigInteger first = new BigInteger(1, firstIp);
    BigInteger last = new BigInteger(1, lastIp);
    List<String> out = new ArrayList<>();
    while (first.compareTo(last) <= 0) {
      int align = first.signum() == 0 ? bits : first.getLowestSetBit();
      int size = last.subtract(first).add(BigInteger.ONE).bitLength() - 1;
      int hostBits = Math.min(align, size);
      int prefix = bits - hostBits;
      out.add(IpNet.format(IpNet.toBytes(first, firstIp.length)) + "/" + prefix);
      first = first.add(BigInteger.ONE.shiftLeft(hostBits));
    }
    return out;
  }
}
