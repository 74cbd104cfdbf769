package dev.agentcompute.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Protects the MCP endpoint from browsers (docs/security.md#network-exposure):
 *
 * <ul>
 *   <li>cross-origin protection like Go's {@code http.CrossOriginProtection}: a state-changing
 *       request that a browser marks cross-site ({@code Sec-Fetch-Site}), or whose {@code Origin}
 *       differs from its {@code Host}, is refused;
 *   <li>DNS-rebinding protection, only when no tokens are configured: a request that arrived on a
 *       loopback address must name a loopback host, otherwise a web page on another name that
 *       resolves to 127.0.0.1 could drive the unauthenticated server.
 * </ul>
 */
final class BrowserGuard {
  private final boolean hostCheck;

  /**
   * @param hostCheck true when the server runs without bearer tokens
   */
  BrowserGuard(boolean hostCheck) {
    this.hostCheck = hostCheck;
  }

  /** Why the request must be refused with 403, or empty if it may proceed. */
  Optional<String> refusal(ServerRequest req) {
    Method method = req.prologue().method();
    boolean safe = method == Method.GET || method == Method.HEAD || method == Method.OPTIONS;
    String host = req.headers().first(HeaderNames.HOST).orElse(req.authority());
    if (!safe) {
      Optional<String> site = req.headers().first(HeaderNames.create("Sec-Fetch-Site"));
      if (site.isPresent()) {
        if (!site.get().equals("same-origin") && !site.get().equals("none")) {
          return Optional.of("cross-origin request refused");
        }
      } else {
        Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
        if (origin.isPresent() && !sameHost(origin.get(), host)) {
          return Optional.of("cross-origin request refused");
        }
      }
    }
    if (hostCheck && arrivedOnLoopback(req) && !isLoopbackHost(host)) {
      return Optional.of("invalid Host header");
    }
    return Optional.empty();
  }

  private static boolean sameHost(String origin, String host) {
    try {
      URI uri = URI.create(origin);
      if (uri.getHost() == null || host == null) {
        return false;
      }
      String authority = uri.getRawAuthority();
      return authority.equalsIgnoreCase(host);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean arrivedOnLoopback(ServerRequest req) {
    return req.localPeer().address() instanceof InetSocketAddress a
        && a.getAddress() != null
        && a.getAddress().isLoopbackAddress();
  }

  /** localhost, or a loopback IP literal, with any port. */
  static boolean isLoopbackHost(String hostHeader) {
    if (hostHeader == null || hostHeader.isEmpty()) {
      return false;
    }
    String host = hostOnly(hostHeader).toLowerCase(Locale.ROOT);
    if (host.equals("localhost")) {
      return true;
    }
    return ipLiteral(host).map(InetAddress::isLoopbackAddress).orElse(false);
  }

  static String hostOnly(String hostPort) {
    if (hostPort.startsWith("[")) {
      int end = hostPort.indexOf(']');
      return end > 0 ? hostPort.substring(1, end) : hostPort;
    }
    int colon = hostPort.lastIndexOf(':');
    if (colon >= 0 && hostPort.indexOf(':') == colon) {
      return hostPort.substring(0, colon);
    }
    return hostPort;
  }

  /** Parses an IPv4 or IPv6 literal without any DNS lookup. */
  static Optional<InetAddress> ipLiteral(String host) {
    boolean ipv4 = host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean ipv6 = host.contains(":") && host.matches("[0-9a-fA-F:.%]+");
    if (!ipv4 && !ipv6) {
      return Optional.empty();
    }
    try {
      return Optional.of(InetAddress.ofLiteral(host));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
