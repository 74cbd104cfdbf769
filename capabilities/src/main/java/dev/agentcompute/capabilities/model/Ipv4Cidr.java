package dev.agentcompute.capabilities.model;

import java.util.Optional;

/**
 * An IPv4 address with a prefix length, as Incus writes {@code ipv4.address} ({@code 10.1.0.1/24}:
 * the host part is kept, so the same value names the gateway and its subnet).
 */
public record Ipv4Cidr(int address, int prefix) {
  public Ipv4Cidr {
    if (prefix < 0 || prefix > 32) {
      throw new IllegalArgumentException("prefix must be between 0 and 32: " + prefix);
    }
  }

  /** Parses {@code a.b.c.d/n}; empty when the text is not such a value. */
  public static Optional<Ipv4Cidr> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    int slash = text.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    Optional<Integer> address = parseAddress(text.substring(0, slash));
    String prefixText = text.substring(slash + 1);
    if (address.isEmpty()
        || prefixText.isEmpty()
        || prefixText.length() > 2
        || !prefixText.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    int prefix = Integer.parseInt(prefixText);
    return prefix > 32 ? Optional.empty() : Optional.of(new Ipv4Cidr(address.get(), prefix));
  }

  /** Parses a dotted-quad IPv4 address without consulting DNS. */
  public static Optional<Integer> parseAddress(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return Optional.empty();
    }
    int value = 0;
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
        return Optional.empty();
      }
      int octet = Integer.parseInt(part);
      if (octet > 255) {
        return Optional.empty();
      }
      value = (value << 8) | octet;
    }
    return Optional.of(value);
  }

  private int mask() {
    return prefix == 0 ? 0 : -1 << (32 - prefix);
  }

  /** The network address with this prefix ({@code 10.1.0.0/24} for {@code 10.1.0.1/24}). */
  public Ipv4Cidr network() {
    return new Ipv4Cidr(address & mask(), prefix);
  }

  /** Number of addresses covered, as a long because a /0 has 2^32. */
  public long size() {
    return 1L << (32 - prefix);
  }

  public boolean contains(int other) {
    return (other & mask()) == (address & mask());
  }

  public boolean overlaps(Ipv4Cidr other) {
    int shorter = Math.min(prefix, other.prefix);
    int m = shorter == 0 ? 0 : -1 << (32 - shorter);
    return (address & m) == (other.address & m);
  }

  /** The address {@code offset} after the network address, with this prefix. */
  public Ipv4Cidr host(int offset) {
    return new Ipv4Cidr((address & mask()) + offset, prefix);
  }

  /** The address part alone ({@code 10.1.0.1}). */
  public String addressText() {
    return ((address >>> 24) & 255)
        + "."
        + ((address >>> 16) & 255)
        + "."
        + ((address >>> 8) & 255)
        + "."
        + (address & 255);
  }

  @Override
  public String toString() {
    return addressText() + "/" + prefix;
  }
}
