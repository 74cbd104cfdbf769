package dev.agentcompute.server.config;

import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.ovn.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Validates {@code incus.ovn_northbound} ({@code tcp:HOST:PORT}, {@code unix:PATH} or {@code
 * ssl:HOST:PORT}) and, for {@code ssl:}, the {@code incus.ovn_northbound_tls} block: its files must
 * exist and be readable, and exactly one of {@code ca_cert} and {@code server_sha256} says how the
 * server is trusted. The block belongs to {@code ssl:} only: either one without the other is an
 * error that names the fix.
 */
final class NorthboundSettings {
  static final String KEY = "incus.ovn_northbound";
  static final String TLS_KEY = "incus.ovn_northbound_tls";
  private static final String FORMS = "tcp:HOST:PORT, ssl:HOST:PORT or unix:PATH";
  private static final String SSL = "ssl:";

  private NorthboundSettings() {}

  static Optional<OvsdbEndpoint> load(
      String value,
      RuntimeConfig.NorthboundTls tls,
      Function<String, Path> resolve,
      List<String> problems) {
    if (value == null || value.isBlank()) {
      if (tls != null) {
        problems.add(
            TLS_KEY
                + " is set but "
                + KEY
                + " is not: set "
                + KEY
                + ": \"ssl:HOST:PORT\" or remove the block");
      }
      return Optional.empty();
    }
    if (!value.startsWith(SSL)) {
      if (tls != null) {
        problems.add(
            TLS_KEY
                + " is only for ssl: connections, but "
                + KEY
                + " is \""
                + value
                + "\": use ssl:HOST:PORT or remove the block");
      }
      return plain(value, resolve, problems);
    }
    Optional<OvsdbEndpoint.Tcp> address = hostPort(value.substring(SSL.length()));
    if (address.isEmpty()) {
      problems.add(KEY + " must be " + FORMS + ", got \"" + value + "\"");
      return Optional.empty();
    }
    if (tls == null) {
      problems.add(
          KEY
              + " \""
              + value
              + "\" needs "
              + TLS_KEY
              + " {client_cert, client_key, and ca_cert or server_sha256}");
      return Optional.empty();
    }
    return tlsSettings(tls, resolve, problems)
        .map(s -> OvsdbEndpoint.tls(address.get().host(), address.get().port(), s));
  }

  /** {@code tcp:} or {@code unix:} (a relative socket path resolves like every other path). */
  private static Optional<OvsdbEndpoint> plain(
      String value, Function<String, Path> resolve, List<String> problems) {
    try {
      String spec =
          value.startsWith("unix:") && value.length() > 5
              ? "unix:" + resolve.apply(value.substring(5))
              : value;
      return Optional.of(OvsdbEndpoint.parse(spec));
    } catch (IllegalArgumentException e) {
      problems.add(KEY + " must be " + FORMS + ", got \"" + value + "\"");
      return Optional.empty();
    }
  }

  /** HOST:PORT as in {@code tcp:}, IPv6 hosts in brackets. */
  private static Optional<OvsdbEndpoint.Tcp> hostPort(String rest) {
    try {
      return Optional.of((OvsdbEndpoint.Tcp) OvsdbEndpoint.parse("tcp:" + rest));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<TlsSettings> tlsSettings(
      RuntimeConfig.NorthboundTls tls, Function<String, Path> resolve, List<String> problems) {
    int before = problems.size();
    Path cert = readableFile(tls.clientCert(), "client_cert", resolve, problems);
    Path key = readableFile(tls.clientKey(), "client_key", resolve, problems);
    boolean hasCa = tls.caCert() != null;
    boolean hasPin = tls.serverSha256() != null;
    if (hasCa == hasPin) {
      problems.add(
          TLS_KEY
              + " needs exactly one of ca_cert (the CA that signed the server's certificate) and"
              + " server_sha256 (the server certificate's SHA-256, as `openssl x509 -noout"
              + " -fingerprint -sha256` prints it), got "
              + (hasCa ? "both" : "neither"));
    }
    Path ca = hasCa && !hasPin ? readableFile(tls.caCert(), "ca_cert", resolve, problems) : null;
    if (problems.size() > before) {
      return Optional.empty();
    }
    TlsSettings settings;
    try {
      settings =
          hasCa
              ? TlsSettings.withCa(key, cert, ca)
              : TlsSettings.pinned(key, cert, tls.serverSha256());
    } catch (IllegalArgumentException e) {
      problems.add(
          TLS_KEY
              + ".server_sha256 must be 64 hex digits (colons allowed), got \""
              + tls.serverSha256()
              + "\"");
      return Optional.empty();
    }
    try {
      settings.check();
    } catch (IllegalArgumentException e) {
      problems.add(TLS_KEY + ": " + e.getMessage());
      return Optional.empty();
    }
    return Optional.of(settings);
  }

  private static Path readableFile(
      String value, String field, Function<String, Path> resolve, List<String> problems) {
    String key = TLS_KEY + "." + field;
    if (value == null || value.isBlank()) {
      problems.add(key + " is required: the path of a PEM file");
      return null;
    }
    Path path = resolve.apply(value);
    if (!Files.exists(path)) {
      problems.add(key + " " + path + ": no such file");
      return null;
    }
    if (!Files.isRegularFile(path)) {
      problems.add(key + " " + path + ": not a file; name the PEM file itself");
      return null;
    }
    if (!Files.isReadable(path)) {
      problems.add(
          key
              + " "
              + path
              + ": not readable by this user; grant it read access (or LoadCredential)");
      return null;
    }
    return path;
  }
}
