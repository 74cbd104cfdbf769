package dev.agentcompute.capabilities.net;

import dev.agentcompute.capabilities.compute.Errors;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A validated agent ACL rule (spec §2.7 net.acl.add). Allow rules need an explicit destination that
 * overlaps none of the protected ranges: together with the baseline drops (which OVN ranks above any
 * allow) this keeps management and OOB unreachable whatever rules an agent adds.
 *
 * @param protocol {@code ""}, {@code tcp}, {@code udp} or {@code icmp}
 * @param port destination port (tcp/udp only), empty for any
 */
public record AclRuleSpec(String direction, String action, String protocol, String source, String destination,
    String port) {
  public static final String ALLOW_DESTINATION_REQUIRED =
      "allow requires an explicit destination outside management and OOB ranges";

  private static final Set<String> DIRECTIONS = Set.of("ingress", "egress");
  private static final Set<String> ACTIONS = Set.of("allow", "drop", "reject");
  private static final Set<String> PROTOCOLS = Set.of("", "tcp", "udp", "icmp");

  /** Checks the rule in the original's order and returns it with absent fields as empty strings. */
  public static AclRuleSpec validated(String direction, String action, String protocol, String source,
      String destination, String port, List<Ipv4Cidr> protectedRanges) {
    String proto = protocol == null ? "" : protocol;
    String src = source == null ? "" : source;
    String dst = destination == null ? "" : destination;
    String dport = port == null ? "" : port;
    if (!DIRECTIONS.contains(direction)) {
      throw Errors.of("direction \"%s\" is not supported", direction);
    }
    if (!ACTIONS.contains(action)) {
      throw Errors.of("action \"%s\" is not supported", action);
    }
    if (!PROTOCOLS.contains(proto)) {
      throw Errors.of("protocol \"%s\" is not supported", proto);
    }
    if (!dport.isEmpty() && !proto.equals("tcp") && !proto.equals("udp")) {
      throw Errors.of("port requires tcp or udp");
    }
    if (action.equals("allow") && !allowedDestination(dst, protectedRanges)) {
      throw Errors.of(ALLOW_DESTINATION_REQUIRED);
    }
    return new AclRuleSpec(direction, action, proto, src, dst, dport);
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
   * Empty when the text is no IP or CIDR; else the IPv4 prefix it covers, or an empty inner value for a
   * plain IPv6 prefix (which cannot overlap an IPv4 range).
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
