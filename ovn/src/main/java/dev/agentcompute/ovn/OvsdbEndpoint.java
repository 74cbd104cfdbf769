package dev.agentcompute.ovn;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where an OVSDB server listens, in the {@code tcp:}, {@code unix:} and {@code ssl:} forms OVS
 * uses.
 */
public sealed interface OvsdbEndpoint {

  record Tcp(String host, int port) implements OvsdbEndpoint {
    public Tcp {
      Objects.requireNonNull(host, "host");
      checkPort(port);
    }

    @Override
    public String toString() {
      return "tcp:" + hostPort(host, port);
    }
  }

  record Unix(Path socket) implements OvsdbEndpoint {
    public Unix {
      Objects.requireNonNull(socket, "socket");
    }

    @Override
    public String toString() {
      return "unix:" + socket;
    }
  }

  record Tls(String host, int port, TlsSettings tls) implements OvsdbEndpoint {
    public Tls {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(tls, "tls");
      checkPort(port);
    }

    @Override
    public String toString() {
      return "ssl:" + hostPort(host, port);
    }
  }

  static OvsdbEndpoint tcp(String host, int port) {
    return new Tcp(host, port);
  }

  static OvsdbEndpoint unix(Path socket) {
    return new Unix(socket);
  }

  static OvsdbEndpoint tls(String host, int port, TlsSettings tls) {
    return new Tls(host, port, tls);
  }

  /**
   * Parses {@code tcp:HOST:PORT}, {@code unix:PATH} (IPv6 hosts in brackets). {@code ssl:} needs
   * key material, so it is built with {@link #tls}.
   */
  static OvsdbEndpoint parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    if (spec.startsWith("unix:") && spec.length() > 5) {
      return new Unix(Path.of(spec.substring(5)));
    }
    if (spec.startsWith("tcp:")) {
      String rest = spec.substring(4);
      int colon = rest.lastIndexOf(':');
      if (colon > 0) {
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
          host = host.substring(1, host.length() - 1);
        }
        try {
          return new Tcp(host, Integer.parseInt(rest.substring(colon + 1)));
        } catch (NumberFormatException e) {
          // falls through to the error below
        }
      }
    }
    throw new IllegalArgumentException(
        "not an OVSDB endpoint: '"
            + spec
            + "' (expected tcp:HOST:PORT or unix:PATH; use OvsdbEndpoint.tls for ssl:)");
  }

  private static void checkPort(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be between 1 and 65535, got " + port);
    }
  }

  private static String hostPort(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
