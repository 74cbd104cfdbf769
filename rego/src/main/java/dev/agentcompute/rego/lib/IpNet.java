package dev.agentcompute.rego.lib;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * IP addresses and networks as Go's {@code net} package parses and prints them: IPv4 dotted quads
 * (no leading zeros), IPv6 with {@code ::} compression, IPv4-mapped IPv6 printed as IPv4. Addresses
 * are kept as their big-endian bytes (4 or 16).
 */
record IpNet(byte[] ip, int prefix) {

  /** Parses an address; null if {@code s} is not one. IPv4 gives 4 bytes, IPv6 16. */
  static byte[] parseIp(String s) {
    if (s.indexOf(':') >= 0) {
      return parseV6(s);
    }
    return parseV4(s);
  }

  private static byte[] parseV4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty()
          || p.length() > 3
          || !p.chars().allMatch(Character::isDigit)
          || (p.length() > 1 && p.charAt(0) == '0')) {
        return null;
      }
      int v = Integer.parseInt(p);
      if (v > 255) {
        return null;
      }
      out[i] = (byte) v;
    }
    return out;
  }

  private static byte[] parseV6(String s) {
    if (s.contains("%")) {
      return null;
    }
    byte[] tail4 = null;
    int lastColon = s.lastIndexOf(':');
    if (s.indexOf('.', lastColon) > 0) {
      tail4 = parseV4(s.substring(lastColon + 1));
      if (tail4 == null) {
        return null;
      }
      s = s.substring(0, lastColon + 1) + "0:0";
    }
    int dbl = s.indexOf("::");
    if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
      return null;
    }
    List<Integer> head = groups(dbl >= 0 ? s.substring(0, dbl) : s);
    List<Integer> tail = dbl >= 0 ? groups(s.substring(dbl + 2)) : List.of();
    if (head == null || tail == null) {
      return null;
    }
    int total = head.size() + tail.size();
    if (dbl < 0 ? total != 8 : total > 7) {
      return null;
    }
    int[] g = new int[8];
    for (int i = 0; i < head.size(); i++) {
      g[i] = head.get(i);
    }
    for (int i = 0; i < tail.size(); i++) {
      g[8 - tail.size() + i] = tail.get(i);
    }
    byte[] out = new byte[16];
    for (int i = 0; i < 8; i++) {
      out[2 * i] = (byte) (g[i] >> 8);
      out[2 * i + 1] = (byte) g[i];
    }
    if (tail4 != null) {
      System.arraycopy(tail4, 0, out, 12, 4);
    }
    return out;
  }

  private static List<Integer> groups(String s) {
    List<Integer> out = new ArrayList<>();
    if (s.isEmpty()) {
      return out;
    }
    for (String g : s.split(":", -1)) {
      if (g.isEmpty() || g.length() > 4 || !g.matches("[0-9a-fA-F]+")) {
        return null;
      }
      out.add(Integer.parseInt(g, 16));
    }
    return out;
  }

  /** Parses {@code addr/len} (Go's net.ParseCIDR), masking the address; null if invalid. */
  static IpNet parseCidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return null;
    }
    byte[] ip = parseIp(s.substring(0, slash));
    String len = s.substring(slash + 1);
    if (ip == null
        || len.isEmpty()
        || len.length() > 3
        || !len.chars().allMatch(Character::isDigit)
        || (len.length() > 1 && len.charAt(0) == '0')) {
      return null;
    }
    int prefix = Integer.parseInt(len);
    if (prefix > ip.length * 8) {
      return null;
    }
    return new IpNet(mask(ip, prefix), prefix);
  }

  static byte[] mask(byte[] ip, int prefix) {
    byte[] out = ip.clone();
    for (int i = 0; i < out.length; i++) {
      int bits = Math.max(0, Math.min(8, prefix - 8 * i));
      out[i] &= (byte) (0xff << (8 - bits));
    }
    return out;
  }

  int bits() {
    return ip.length * 8;
  }

  /** Whether {@code addr} is in this network (IPv4 and IPv4-mapped IPv6 are the same address). */
  boolean contains(byte[] addr) {
    byte[] a = addr;
    if (ip.length == 4 && a.length == 16 && isV4Mapped(a)) {
      a = java.util.Arrays.copyOfRange(a, 12, 16);
    }
    if (ip.length == 16 && a.length == 4) {
      a = toV6(a);
    }
    if (a.length != ip.length) {
      return false;
    }
    return java.util.Arrays.equals(mask(a, prefix), ip);
  }

  static boolean isV4Mapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
  }

  static byte[] toV6(byte[] v4) {
    byte[] out = new byte[16];
    out[10] = (byte) 0xff;
    out[11] = (byte) 0xff;
    System.arraycopy(v4, 0, out, 12, 4);
    return out;
  }

  byte[] first() {
    return ip;
  }

  byte[] last() {
    BigInteger hostMask = BigInteger.ONE.shiftLeft(bits() - prefix).subtract(BigInteger.ONE);
    return toBytes(new BigInteger(1, ip).or(hostMask), ip.length);
  }

  static byte[] toBytes(BigInteger v, int len) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[len];
    int n = Math.min(len, raw.length);
    System.arraycopy(raw, raw.length - n, out, len - n, n);
    return out;
  }

  /** Go's net.IP.String. */
  static String format(byte[] a) {
    if (a.length == 16 && isV4Mapped(a)) {
      a = java.util.Arrays.copyOfRange(a, 12, 16);
    }
    if (a.length == 4) {
      return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = ((a[2 * i] & 0xff) << 8) | (a[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen && j - i >= 2) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        b.append("::");
        i += bestLen - 1;
        continue;
      }
      if (!b.isEmpty() && b.charAt(b.length() - 1) != ':') {
        b.append(':');
      }
      b.append(Integer.toHexString(g[i]));
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return format(ip) + "/" + prefix;
  }
}
