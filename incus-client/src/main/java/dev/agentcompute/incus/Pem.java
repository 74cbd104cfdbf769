package dev.agentcompute.incus;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.util.io.pem.PemObject;

/** PEM in and out (BouncyCastle), and the SHA-256 fingerprints Incus identifies certificates by. */
final class Pem {

  private Pem() {}

  /** Inline PEM when the text contains a PEM header, otherwise the path of a PEM file. */
  static String inlineOrFile(String pemOrPath, String what) {
    if (pemOrPath.contains("-----BEGIN")) {
      return pemOrPath;
    }
    try {
      return Files.readString(Path.of(pemOrPath), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read " + what + " from file " + pemOrPath + ": " + e.getMessage(), e);
    }
  }

  static List<X509Certificate> certificates(String pem, String what) {
    List<X509Certificate> out = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (o instanceof X509CertificateHolder holder) {
          out.add(new JcaX509CertificateConverter().getCertificate(holder));
        }
      }
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          what + " is not a valid PEM certificate: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(what + " holds no PEM CERTIFICATE block");
    }
    return out;
  }

  /** Reads SEC1 ("EC PRIVATE KEY"), PKCS#1 ("RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY"). */
  static PrivateKey privateKey(String pem, String what) {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (o instanceof PEMKeyPair pair) {
          // Not converter.getKeyPair(pair): a SEC1 key without its public part would NPE.
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        }
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          what + " is not a valid PEM private key: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(what + " holds no unencrypted PEM private key block");
  }

  static String write(X509Certificate certificate) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * Writes an EC key as SEC1 "EC PRIVATE KEY" with curve and public key, as Incus does. Built by
   * hand: JcaPEMWriter on a JDK EC key omits both, and openssl then rejects the file.
   */
  static String write(PrivateKey key, PublicKey publicKey) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      if (key instanceof ECPrivateKey ec) {
        SubjectPublicKeyInfo spki = SubjectPublicKeyInfo.getInstance(publicKey.getEncoded());
        ASN1ObjectIdentifier curve =
            ASN1ObjectIdentifier.getInstance(spki.getAlgorithm().getParameters());
        var sec1 =
            new org.bouncycastle.asn1.sec.ECPrivateKey(
                ec.getParams().getOrder().bitLength(), ec.getS(), spki.getPublicKeyData(), curve);
        writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      } else {
        writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  static String fingerprint(X509Certificate certificate) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint certificate", e);
    }
  }

  static byte[] der(X509Certificate certificate) {
    try {
      return certificate.getEncoded();
    } catch (CertificateEncodingException e) {
      throw new IllegalStateException("cannot encode certificate", e);
    }
  }
}
