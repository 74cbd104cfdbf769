package dev.agentcompute.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A throw-away CA with a server and a client certificate, made by openssl in {@code dir}: {@code
 * ca.crt}, {@code server.crt}/{@code server.key}, {@code client.crt}/{@code client.key}.
 */
public final class TestPki {
  private final Path dir;

  private TestPki(Path dir) {
    this.dir = dir;
  }

  public static TestPki create(Path dir) throws IOException, InterruptedException {
    TestPki pki = new TestPki(dir);
    pki.openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-subj",
        "/CN=agentcompute-test-ca",
        "-days",
        "2");
    for (String who : List.of("server", "client")) {
      pki.openssl(
          "req",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          who + ".key",
          "-out",
          who + ".csr",
          "-subj",
          "/CN=agentcompute-test-" + who);
      pki.openssl(
          "x509",
          "-req",
          "-in",
          who + ".csr",
          "-CA",
          "ca.crt",
          "-CAkey",
          "ca.key",
          "-CAcreateserial",
          "-out",
          who + ".crt",
          "-days",
          "2");
    }
    return pki;
  }

  public Path dir() {
    return dir;
  }

  public Path file(String name) {
    return dir.resolve(name);
  }

  /** The SHA-256 of a PEM certificate's DER encoding, colon-separated as openssl prints it. */
  public String sha256(String certificate) throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(file(certificate))) {
      byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
      return HexFormat.ofDelimiter(":")
          .withUpperCase()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(der));
    }
  }

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
    }
  }
}
