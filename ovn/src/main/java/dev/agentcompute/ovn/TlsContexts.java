package dev.agentcompute.ovn;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** Builds the client {@link SSLContext} for {@link TlsSettings} from PEM files. */
final class TlsContexts {
  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");
  private static final char[] NO_PASSWORD = new char[0];

  private TlsContexts() {}

  static SSLContext create(TlsSettings settings) {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      List<X509Certificate> chain = certificates(settings.certificate());
      keys.setKeyEntry(
          "client",
          privateKey(settings.privateKey()),
          NO_PASSWORD,
          chain.toArray(X509Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, NO_PASSWORD);

      TrustManager[] trust;
      if (settings.caCertificate().isPresent()) {
        KeyStore cas = KeyStore.getInstance("PKCS12");
        cas.load(null, null);
        int i = 0;
        for (X509Certificate ca : certificates(settings.caCertificate().get())) {
          cas.setCertificateEntry("ca" + i++, ca);
        }
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(cas);
        trust = tmf.getTrustManagers();
      } else {
        trust =
            new TrustManager[] {
              new PinnedTrustManager(settings.pinnedServerSha256().orElseThrow())
            };
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), trust, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "cannot set up TLS from " + settings + ": " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> certificates(Path file)
      throws IOException, CertificateException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<X509Certificate> certs = new ArrayList<>();
    for (byte[] der : pem(file, "CERTIFICATE")) {
      certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
    }
    if (certs.isEmpty()) {
      throw new CertificateException("no PEM CERTIFICATE in " + file);
    }
    return certs;
  }

  /** PKCS#8 ({@code PRIVATE KEY}) RSA or EC keys, and PKCS#1 ({@code RSA PRIVATE KEY}). */
  private static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
    List<byte[]> pkcs8 = pem(file, "PRIVATE KEY");
    if (!pkcs8.isEmpty()) {
      for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
        try {
          return KeyFactory.getInstance(algorithm)
              .generatePrivate(new PKCS8EncodedKeySpec(pkcs8.getFirst()));
        } catch (GeneralSecurityException wrongAlgorithm) {
          // try the next one
        }
      }
      throw new GeneralSecurityException("unsupported private key algorithm in " + file);
    }
    List<byte[]> pkcs1 = pem(file, "RSA PRIVATE KEY");
    if (!pkcs1.isEmpty()) {
      return KeyFactory.getInstance("RSA")
          .generatePrivate(new PKCS8EncodedKeySpec(wrapRsaPkcs1(pkcs1.getFirst())));
    }
    throw new GeneralSecurityException(
        "no unencrypted PEM PRIVATE KEY or RSA PRIVATE KEY in " + file);
  }

  /**
   * PKCS#8 PrivateKeyInfo around a PKCS#1 RSAPrivateKey: version 0, rsaEncryption, OCTET STRING.
   */
  private static byte[] wrapRsaPkcs1(byte[] pkcs1) {
    byte[] version = {0x02, 0x01, 0x00};
    byte[] algorithm = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };
    byte[] octets = der(0x04, pkcs1);
    byte[] body = new byte[version.length + algorithm.length + octets.length];
    System.arraycopy(version, 0, body, 0, version.length);
    System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
    System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
    return der(0x30, body);
  }

  private static byte[] der(int tag, byte[] content) {
    int n = content.length;
    byte[] length =
        n < 0x80
            ? new byte[] {(byte) n}
            : n < 0x100
                ? new byte[] {(byte) 0x81, (byte) n}
                : n < 0x10000
                    ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                    : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    byte[] out = new byte[1 + length.length + n];
    out[0] = (byte) tag;
    System.arraycopy(length, 0, out, 1, length.length);
    System.arraycopy(content, 0, out, 1 + length.length, n);
    return out;
  }

  private static List<byte[]> pem(Path file, String type) throws IOException {
    String text = Files.readString(file);
    List<byte[]> blocks = new ArrayList<>();
    Matcher m = PEM.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(type)) {
        blocks.add(Base64.getMimeDecoder().decode(m.group(2)));
      }
    }
    return blocks;
  }

  /** Accepts exactly one server certificate, by the SHA-256 of its DER encoding. */
  private static final class PinnedTrustManager extends X509ExtendedTrustManager {
    private final String sha256;

    PinnedTrustManager(String sha256) {
      this.sha256 = sha256;
    }

    private void check(X509Certificate[] chain) throws CertificateException {
      if (chain == null || chain.length == 0) {
        throw new CertificateException("server sent no certificate");
      }
      try {
        String actual =
            HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded()));
        if (!actual.equals(sha256)) {
          throw new CertificateException(
              "server certificate SHA-256 " + actual + " is not the pinned " + sha256);
        }
        chain[0].checkValidity();
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new CertificateException("SHA-256 is not available", e);
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("client-side trust manager");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("client-side trust manager");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("client-side trust manager");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
