package dev.agentcompute.incus;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly one server certificate, as Incus's own client does for a remote added with a
 * stored server certificate. Extends {@link X509ExtendedTrustManager} so that JSSE leaves endpoint
 * identification to it: the pin is the identity, whatever address was dialled.
 */
final class PinningTrustManager extends X509ExtendedTrustManager {

  private final X509Certificate pinned;

  PinningTrustManager(X509Certificate pinned) {
    this.pinned = pinned;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("server presented no certificate");
    }
    if (!chain[0].equals(pinned)) {
      throw new CertificateException(
          "server certificate "
              + Pem.fingerprint(chain[0])
              + " is not the pinned certificate "
              + Pem.fingerprint(pinned));
    }
    chain[0].checkValidity();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client trust manager does not authenticate clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
