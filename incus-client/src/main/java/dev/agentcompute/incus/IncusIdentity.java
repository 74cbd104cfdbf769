package dev.agentcompute.incus;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A TLS client identity for Incus: certificate and private key. {@link #generate} makes one shaped
 * like Incus's own ({@code O=Linux Containers}, EC P-384, ECDSA-SHA384, client auth, 10 years).
 */
public record IncusIdentity(X509Certificate certificate, PrivateKey privateKey) {

  private static final Duration VALIDITY = Duration.ofDays(3650);

  /** Generates a fresh identity named {@code CN=<commonName>}. */
  public static IncusIdentity generate(String commonName) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp384r1"), new SecureRandom());
      KeyPair pair = generator.generateKeyPair();
      X500Name subject =
          new X500NameBuilder(BCStyle.INSTANCE)
              .addRDN(BCStyle.O, "Linux Containers")
              .addRDN(BCStyle.CN, commonName)
              .build();
      Instant now = Instant.now();
      var builder =
          new JcaX509v3CertificateBuilder(
              subject,
              new BigInteger(128, new SecureRandom()),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(VALIDITY)),
              subject,
              pair.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      builder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
      builder.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          new JcaX509ExtensionUtils().createSubjectKeyIdentifier(pair.getPublic()));
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(new GeneralName(GeneralName.dNSName, hostPart(commonName))));
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA384withECDSA").build(pair.getPrivate())));
      return new IncusIdentity(certificate, pair.getPrivate());
    } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
      throw new IllegalStateException(
          "cannot generate an EC P-384 client identity: " + e.getMessage(), e);
    }
  }

  /** The conventional common name {@code <user>@<host>} for this machine. */
  public static String defaultCommonName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "localhost";
    }
    return System.getProperty("user.name", "agentcompute") + "@" + host;
  }

  /**
   * Loads an identity; each argument is inline PEM (contains {@code -----BEGIN}) or a file path.
   */
  public static IncusIdentity fromPem(String certificatePemOrPath, String keyPemOrPath) {
    X509Certificate certificate =
        Pem.certificates(
                Pem.inlineOrFile(certificatePemOrPath, "client certificate"), "client certificate")
            .getFirst();
    PrivateKey key = Pem.privateKey(Pem.inlineOrFile(keyPemOrPath, "client key"), "client key");
    return new IncusIdentity(certificate, key);
  }

  /** The certificate as PEM: what to hand to {@code incus config trust add-certificate}. */
  public String certificatePem() {
    return Pem.write(certificate);
  }

  /** The private key as PEM (SEC1 {@code EC PRIVATE KEY} for EC keys, like Incus writes). */
  public String privateKeyPem() {
    return Pem.write(privateKey, certificate.getPublicKey());
  }

  /** Lower-case hex SHA-256 of the certificate: how Incus names trusted certificates. */
  public String fingerprint() {
    return Pem.fingerprint(certificate);
  }

  /** Writes certificate and key (the key readable by its owner only). */
  public void write(Path certificateFile, Path keyFile) throws IOException {
    Files.writeString(certificateFile, certificatePem(), StandardCharsets.US_ASCII);
    Files.deleteIfExists(keyFile);
    Files.createFile(
        keyFile,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(
        keyFile, privateKeyPem(), StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
  }

  private static String hostPart(String commonName) {
    int at = commonName.lastIndexOf('@');
    String host = at >= 0 ? commonName.substring(at + 1) : commonName;
    return host.isBlank() ? "localhost" : host;
  }

  @Override
  public String toString() {
    return "IncusIdentity["
        + certificate.getSubjectX500Principal().getName()
        + ", sha256="
        + fingerprint()
        + "]";
  }
}
