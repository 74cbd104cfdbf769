package dev.agentcompute.server.http;

import dev.agentcompute.server.errors.UsageException;
import java.net.InetAddress;

/**
 * A {@code host:port} listen address as given by {@code --addr}. Loopback means the host is {@code
 * localhost} or a loopback IP literal; an empty host, {@code 0.0.0.0} and any other name are not
 * (docs/security.md#network-exposure).
 */
public record ListenAddress(String host, int port) {
  public static ListenAddress parse(String addr) {
    int colon = addr.lastIndexOf(':');
    if (colon < 0) {
      throw new UsageException("invalid listen address \"" + addr + "\": use host:port");
    }
    String host = addr.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(addr.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new UsageException("invalid listen address \"" + addr + "\": the port is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new UsageException("invalid listen address \"" + addr + "\": port out of range");
    }
    return new ListenAddress(host, port);
  }

  boolean isLoopback() {
    return host.equalsIgnoreCase("localhost")
        || BrowserGuard.ipLiteral(host).map(InetAddress::isLoopbackAddress).orElse(false);
  }

  /** The host Helidon binds: all interfaces for an empty host. */
  String bindHost() {
    return host.isEmpty() ? "0.0.0.0" : host;
  }

  /** The spec's refusal, raised before anything else starts. */
  public static void checkExposure(
      String addr, ListenAddress address, boolean tokens, boolean insecure) {
    if (!address.isLoopback() && !tokens && !insecure) {
      throw new UsageException(
          "refusing to bind non-loopback address \""
              + addr
              + "\" without authentication: set --auth-tokens-file (env AGENTCOMPUTE_AUTH_TOKENS_FILE)"
              + " to require a bearer token, or pass --insecure to expose all tools unauthenticated"
              + " (UNSAFE)");
    }
  }
}
