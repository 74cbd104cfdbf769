package dev.agentcompute.ovn;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Client side of an {@code ssl:} OVSDB connection: our private key and certificate (PEM, as {@code
 * ovs-pki} or openssl write them) and how the server is trusted: a CA certificate file, or the
 * SHA-256 fingerprint of the server's own certificate (pinning). OVSDB servers are not checked
 * against a host name, as in OVS itself.
 */
public record TlsSettings(
    Path privateKey,
    Path certificate,
    Optional<Path> caCertificate,
    Optional<String> pinnedServerSha256) {
  public TlsSettings {
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(certificate, "certificate");
    if (caCertificate.isPresent() == pinnedServerSha256.isPresent()) {
      throw new IllegalArgumentException(
          "give exactly one of caCertificate and pinnedServerSha256");
    }
    pinnedServerSha256 = pinnedServerSha256.map(TlsSettings::normalizeFingerprint);
  }

  /** Trust servers whose certificate is signed by the CA in {@code caCertificate}. */
  public static TlsSettings withCa(Path privateKey, Path certificate, Path caCertificate) {
    return new TlsSettings(privateKey, certificate, Optional.of(caCertificate), Optional.empty());
  }

  /** Trust only the server certificate with this SHA-256 fingerprint (hex, colons allowed). */
  public static TlsSettings pinned(Path privateKey, Path certificate, String serverSha256) {
    return new TlsSettings(privateKey, certificate, Optional.empty(), Optional.of(serverSha256));
  }

  /**
   * Reads the files and builds the TLS context now, so that a missing or malformed PEM file is
   * reported when the settings are loaded rather than at the first connection.
   *
   * @throws IllegalArgumentException naming the files and what is wrong with them
   */
  public void check() {
    TlsContexts.create(this);
  }

  private static String normalizeFingerprint(String hex) {
    String clean = hex.replace(":", "").toLowerCase(java.util.Locale.ROOT);
    if (clean.length() != 64) {
      throw new IllegalArgumentException(
          "a SHA-256 fingerprint has 64 hex digits, got '" + hex + "'");
    }
    HexFormat.of().parseHex(clean);
    return clean;
  }
}
