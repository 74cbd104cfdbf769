package dev.agentcompute.capabilities.model;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * An agent ACL rule (docs/reference/capabilities.md#netacladd-netaclremove), parsed in the
 * original's order: direction, action, protocol, then a port only with tcp or udp. Allow rules also
 * need an explicit destination that overlaps none of the protected ranges ({@link
 * #requireAllowedDestination}, which needs the configured ranges): together with the baseline drops
 * (which OVN ranks above any allow) this keeps management and OOB unreachable whatever rules an
 * agent adds.
 *
 * @param source passed through unvalidated (Incus validates it)
 * @param destination IP or CIDR, empty for any
 * @param port destination port (tcp/udp only), empty for any
 */
public record AclRuleSpec(
    AclDirection direction,
    AclAction action,
    AclProtocol protocol,
    String source,
    String destination,
    String port) {
  public static final String ALLOW_DESTINATION_REQUIRED =
      "allow requires an explicit destination outside management and OOB ranges";

  /** Parses the agent's words; absent optional fields become empty strings. */
  public static AclRuleSpec parse(
      String direction,
      String action,
      String protocol,
      String source,
      String destination,
      String port) {
    AclDirection d = AclDirection.parse(direction);
    AclAction a = AclAction.parse(action);
    AclProtocol p = AclProtocol.parse(protocol);
    String dport = port == null ? "" : port;
    if (!dport.isEmpty() && !p.hasPorts()) {
      throw Errors.of("port requires tcp or udp");
    }
    return new AclRuleSpec(
        d, a, p, source == null ? "" : source, destination == null ? "" : destination, dport);
  }

  /** {@link #parse} and {@link #requireAllowedDestination} in one step. */
  public static AclRuleSpec validated(
      String direction,
      String action,
      String protocol,
      String source,
      String destination,
      String port,
      List<Ipv4Cidr> protectedRanges) {
    return parse(direction, action, protocol, source, destination, port)
        .requireAllowedDestination(protectedRanges);
  }

  /** An allow rule must name a destination outside every protected range. */
  public AclRuleSpec requireAllowedDestination(List<Ipv4Cidr> protectedRanges) {
    if (action == AclAction.ALLOW && !allowedDestination(destination, protectedRanges)) {
      throw Errors.of(ALLOW_DESTINATION_REQUIRED);
    }
    return this;
  }

  /** An IP or CIDR (IPv4-mapped IPv6 read as IPv4) that overlaps no protected range. */
  static boolean allowedDestination(String destination, List<Ipv4Cidr> protectedRanges) {
    Optional<Optional<Ipv4Cidr>> parsed = parseDestination(destination);
    if (parsed.isEmpty()) {
      return false;
    }
    return parsed.get().map(v4 -> protectedRanges.stream().noneMatch(v4::overlaps)).orElse(true);
  }

  /**
   * Empty when the text is no IP or CIDR; else the IPv4 prefix it covers, or an empty inner value
   * for a plain IPv6 prefix (which cannot overlap an IPv4 range).
   */
  static Optional<Optional<Ipv4Cidr>> parseDestination(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    int slash = text.indexOf('/');
    String addressText = slash < 0 ? text : text.substring(0, slash);
    String prefixText = slash < 0 ? null : text.substring(slash + 1);
    if (!addressText.contains(":")) {
      Optional<Integer> address = Ipv4Cidr.parseAddress(addressText);
      Optional<Integer> prefix = prefixText == null ? Optional.of(32) : prefix(prefixText, 32);
      if (address.isEmpty() || prefix.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(Optional.of(new Ipv4Cidr(address.get(), prefix.get())));
    }
    if (!addressText.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
      return Optional.empty();
    }
    Optional<Integer> prefix = prefixText == null ? Optional.of(128) : prefix(prefixText, 128);
    if (prefix.isEmpty()) {
      return Optional.empty();
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(addressText); // a literal with ':' never goes to DNS
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
    if (address instanceof Inet4Address v4) {
      // Java folds IPv4-mapped literals (::ffff:a.b.c.d) into IPv4 addresses.
      if (prefix.get() < 96) {
        return Optional.empty();
      }
      byte[] b = v4.getAddress();
      int value = ((b[0] & 255) << 24) | ((b[1] & 255) << 16) | ((b[2] & 255) << 8) | (b[3] & 255);
      return Optional.of(Optional.of(new Ipv4Cidr(value, prefix.get() - 96)));
    }
    return address instanceof Inet6Address ? Optional.of(Optional.empty()) : Optional.empty();
  }

  private static Optional<Integer> prefix(String text, int max) {
    if (text.isEmpty() || text.length() > 3 || !text.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    int value = Integer.parseInt(text);
    return value > max ? Optional.empty() : Optional.of(value);
  }
}
