package dev.agentcompute.capabilities.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * An inclusive IPv4 range written as a CIDR (every address, network and broadcast included: {@code
 * 10.10.40.64/26} is .64–.127) or as {@code A.B.C.D-E.F.G.H}
 * (docs/reference/capabilities.md#netforward).
 */
public record AddressRange(long first, long last) {
  public static Optional<AddressRange> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    String value = text.trim();
    int dash = value.indexOf('-');
    if (dash >= 0) {
      Optional<Integer> first = Ipv4Cidr.parseAddress(value.substring(0, dash).trim());
      Optional<Integer> last = Ipv4Cidr.parseAddress(value.substring(dash + 1).trim());
      if (first.isEmpty() || last.isEmpty() || unsigned(first.get()) > unsigned(last.get())) {
        return Optional.empty();
      }
      return Optional.of(new AddressRange(unsigned(first.get()), unsigned(last.get())));
    }
    return Ipv4Cidr.parse(value)
        .map(
            c -> {
              long start = unsigned(c.network().address());
              return new AddressRange(start, start + c.size() - 1);
            });
  }

  /** The first address of the range not in {@code used} (dotted quads), if any. */
  public Optional<String> firstFree(Collection<String> used) {
    for (long a = first; a <= last; a++) {
      String text = text(a);
      if (!used.contains(text)) {
        return Optional.of(text);
      }
    }
    return Optional.empty();
  }

  /** The addresses both ranges hold, if any. */
  public Optional<AddressRange> intersection(AddressRange other) {
    long from = Math.max(first, other.first);
    long to = Math.min(last, other.last);
    return from <= to ? Optional.of(new AddressRange(from, to)) : Optional.empty();
  }

  /** Every address of the range as a dotted quad (ranges from configuration are small). */
  public List<String> addresses() {
    List<String> result = new ArrayList<>();
    for (long a = first; a <= last; a++) {
      result.add(text(a));
    }
    return result;
  }

  private static long unsigned(int address) {
    return address & 0xffffffffL;
  }

  static String text(long a) {
    return ((a >>> 24) & 255)
        + "."
        + ((a >>> 16) & 255)
        + "."
        + ((a >>> 8) & 255)
        + "."
        + (a & 255);
  }
}
