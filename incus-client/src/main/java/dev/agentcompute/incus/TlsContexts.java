package dev.agentcompute.incus;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the one SSLContext shared by REST calls and websockets: client identity plus server trust.
 */
final class TlsContexts {

  private static final char[] IN_MEMORY_PASSWORD = "incus".toCharArray();

  private TlsContexts() {}

  /**
   * Trust exactly {@code pinned}, or (when {@code pinned} is null) the CAs in {@code authorities}.
   */
  static SSLContext create(
      IncusIdentity identity, X509Certificate pinned, List<X509Certificate> authorities) {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "client",
          identity.privateKey(),
          IN_MEMORY_PASSWORD,
          new X509Certificate[] {identity.certificate()});
      KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, IN_MEMORY_PASSWORD);
      TrustManager[] trust;
      if (pinned != null) {
        trust = new TrustManager[] {new PinningTrustManager(pinned)};
      } else {
        KeyStore anchors = KeyStore.getInstance("PKCS12");
        anchors.load(null, null);
        for (int i = 0; i < authorities.size(); i++) {
          anchors.setCertificateEntry("ca-" + i, authorities.get(i));
        }
        TrustManagerFactory factory =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(anchors);
        trust = factory.getTrustManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), trust, new SecureRandom());
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException(
          "cannot build the TLS context for Incus: " + e.getMessage(), e);
    }
  }
}
