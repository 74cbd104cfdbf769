package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncusIdentityTest {

  @Test
  void generatedIdentityIsShapedLikeIncusOwn() throws Exception {
    IncusIdentity identity = IncusIdentity.generate("root@research");
    var certificate = identity.certificate();
    assertThat(certificate.getSubjectX500Principal().getName())
        .isEqualTo("CN=root@research,O=Linux Containers");
    assertThat(certificate.getSigAlgName()).isEqualTo("SHA384withECDSA");
    assertThat(((ECPublicKey) certificate.getPublicKey()).getParams().getOrder().bitLength())
        .isEqualTo(384);
    assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(certificate.getBasicConstraints()).isEqualTo(-1);
    assertThat(certificate.getSubjectAlternativeNames())
        .anySatisfy(san -> assertThat(san.get(1)).isEqualTo("research"));
    assertThat(identity.fingerprint()).hasSize(64).isEqualTo(Pem.fingerprint(certificate));
  }

  @Test
  void pemRoundTripKeepsAWorkingKeyPair(@TempDir Path dir) throws Exception {
    IncusIdentity identity = IncusIdentity.generate("me@host");
    assertThat(identity.privateKeyPem()).startsWith("-----BEGIN EC PRIVATE KEY-----");
    IncusIdentity inline =
        IncusIdentity.fromPem(identity.certificatePem(), identity.privateKeyPem());
    assertThat(inline.certificate()).isEqualTo(identity.certificate());
    Signature signer = Signature.getInstance("SHA384withECDSA");
    signer.initSign(inline.privateKey());
    signer.update("x".getBytes(StandardCharsets.UTF_8));
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA384withECDSA");
    verifier.initVerify(identity.certificate().getPublicKey());
    verifier.update("x".getBytes(StandardCharsets.UTF_8));
    assertThat(verifier.verify(signature)).isTrue();

    identity.write(dir.resolve("c.crt"), dir.resolve("c.key"));
    assertThat(Files.getPosixFilePermissions(dir.resolve("c.key")))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    IncusIdentity fromFiles =
        IncusIdentity.fromPem(dir.resolve("c.crt").toString(), dir.resolve("c.key").toString());
    assertThat(fromFiles.fingerprint()).isEqualTo(identity.fingerprint());
  }

  @Test
  void keyFileIsReadableByOpenssl(@TempDir Path dir) throws Exception {
    IncusIdentity identity = IncusIdentity.generate("me@host");
    identity.write(dir.resolve("c.crt"), dir.resolve("c.key"));
    Process openssl =
        new ProcessBuilder(
                "openssl", "ec", "-in", dir.resolve("c.key").toString(), "-noout", "-text")
            .redirectErrorStream(true)
            .start();
    String out = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(openssl.waitFor()).as(out).isZero();
    assertThat(out).contains("NIST CURVE: P-384");
  }

  @Test
  void badInputsAreNamed() {
    assertThatThrownBy(
            () -> IncusIdentity.fromPem("/nonexistent/client.crt", "/nonexistent/client.key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/nonexistent/client.crt");
    IncusIdentity identity = IncusIdentity.generate("me@host");
    assertThatThrownBy(
            () -> IncusIdentity.fromPem(identity.certificatePem(), identity.certificatePem()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("client key");
  }

  @Test
  void toolPrintsTheCertificateToTrustAndReusesAnExistingIdentity(@TempDir Path dir)
      throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
      System.setOut(new PrintStream(first, true, StandardCharsets.UTF_8));
      IncusIdentityTool.main(new String[] {dir.toString(), "tool@test"});
      System.setOut(new PrintStream(second, true, StandardCharsets.UTF_8));
      IncusIdentityTool.main(new String[] {dir.toString()});
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String printed = first.toString(StandardCharsets.UTF_8);
    assertThat(printed).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(second.toString(StandardCharsets.UTF_8)).isEqualTo(printed);
    assertThat(Pem.certificates(printed, "printed").getFirst().getSubjectX500Principal().getName())
        .contains("CN=tool@test");
  }
}
