package dev.agentcompute.server.compute;

import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusIdentity;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link IncusConnection#open} would refuse, found without contacting Incus: the remote exists
 * in the CLI configuration, an https endpoint has a client certificate and key that parse and
 * belong together, and a pinned server certificate parses.
 */
public final class IncusPreflight {
  private static final byte[] PROBE = "agentcompute key check".getBytes(StandardCharsets.US_ASCII);

  private IncusPreflight() {}

  /** Adds one line per problem to {@code problems}. */
  public static void check(
      ServerConfig.Incus incus, Map<String, String> env, List<String> problems) {
    if (incus.url().isPresent()) {
      URI url = incus.url().get();
      if ("https".equals(url.getScheme())) {
        if (incus.clientCert().isEmpty() || incus.clientKey().isEmpty()) {
          problems.add(
              "incus.url "
                  + url
                  + " needs incus.client_cert and incus.client_key (a client certificate and its"
                  + " key, PEM inline or a file path)");
          return;
        }
        identity(
            url,
            incus.clientCert().get(),
            incus.clientKey().get(),
            incus.serverCert(),
            "incus.client_cert and incus.client_key",
            "incus.server_cert",
            problems);
      }
      return;
    }
    String remote = incus.remote().orElse("local");
    if (remote.equals("local")) {
      return;
    }
    IncusConnection.Remote resolved;
    try {
      resolved = IncusConnection.Remote.resolve(remote, env);
    } catch (StartupException e) {
      problems.add(e.getMessage());
      return;
    }
    if ("https".equals(resolved.url().getScheme())) {
      identity(
          resolved.url(),
          resolved.clientCert().toString(),
          resolved.clientKey().toString(),
          resolved.serverCert().map(Object::toString),
          "incus.remote \"" + remote + "\": the Incus CLI's client.crt and client.key",
          "incus.remote \"" + remote + "\": the Incus CLI's server certificate",
          problems);
    }
  }

  private static void identity(
      URI url,
      String cert,
      String key,
      Optional<String> serverCert,
      String identityKeys,
      String serverKey,
      List<String> problems) {
    IncusIdentity identity;
    try {
      identity = IncusIdentity.fromPem(cert, key);
    } catch (RuntimeException e) {
      problems.add(identityKeys + " cannot be loaded: " + e.getMessage());
      return;
    }
    if (!belongTogether(identity)) {
      problems.add(
          identityKeys
              + ": the private key does not belong to the certificate (use the key the"
              + " certificate was issued for)");
    }
    serverCert.ifPresent(
        pem -> {
          try {
            IncusClient.https(url, identity).pinnedServerCertificate(pem);
          } catch (RuntimeException e) {
            problems.add(serverKey + " cannot be loaded: " + e.getMessage());
          }
        });
  }

  /**
   * Signs with the key and verifies with the certificate's public key. The algorithm names vary
   * with the provider that parsed the key (BouncyCastle says ECDSA where the JDK says EC).
   */
  static boolean belongTogether(IncusIdentity identity) {
    PublicKey publicKey = identity.certificate().getPublicKey();
    String algorithm =
        switch (identity.privateKey().getAlgorithm()) {
          case "EC", "ECDSA" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return true; // a key type we cannot probe: the TLS handshake will tell
    }
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(identity.privateKey());
      signer.update(PROBE);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(PROBE);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
