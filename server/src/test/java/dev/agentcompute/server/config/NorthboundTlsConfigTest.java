package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.server.errors.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code incus.ovn_northbound: ssl:…} with its {@code incus.ovn_northbound_tls} block. */
class NorthboundTlsConfigTest {
  private static final String SHOTS = "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n";

  @TempDir static Path dir;
  private static TestPki pki;

  @BeforeAll
  static void certificates() throws Exception {
    pki = TestPki.create(Files.createDirectories(dir.resolve("pki")));
  }

  private static ServerConfig load(String tls) throws Exception {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(
        file,
        "incus: {remote: local, pool: default, ovn_uplink: uplink0,"
            + " ovn_northbound: \"ssl:127.0.0.1:6641\", ovn_northbound_tls: "
            + tls
            + "}\n"
            + SHOTS);
    return ConfigLoader.load(file).config();
  }

  private static List<String> problems(String tls) throws Exception {
    try {
      load(tls);
    } catch (ConfigException e) {
      return e.problems();
    }
    throw new AssertionError("configuration was accepted: " + tls);
  }

  @Test
  void aPinnedServerCertificateMakesAnSslEndpoint() throws Exception {
    ServerConfig c =
        load(
            "{client_cert: pki/client.crt, client_key: pki/client.key, server_sha256: \""
                + pki.sha256("server.crt")
                + "\"}");
    OvsdbEndpoint.Tls endpoint = (OvsdbEndpoint.Tls) c.incus().ovnNorthbound().orElseThrow();
    assertThat(endpoint.toString()).isEqualTo("ssl:127.0.0.1:6641");
    // relative paths resolve against the configuration file, like every other path
    assertThat(endpoint.tls().certificate()).isEqualTo(pki.file("client.crt"));
    assertThat(endpoint.tls().privateKey()).isEqualTo(pki.file("client.key"));
    assertThat(endpoint.tls().pinnedServerSha256())
        .contains(pki.sha256("server.crt").replace(":", "").toLowerCase());
    assertThat(endpoint.tls().caCertificate()).isEmpty();
  }

  @Test
  void aCaCertificateMakesAnSslEndpoint() throws Exception {
    ServerConfig c =
        load("{client_cert: pki/client.crt, client_key: pki/client.key, ca_cert: pki/ca.crt}");
    OvsdbEndpoint.Tls endpoint = (OvsdbEndpoint.Tls) c.incus().ovnNorthbound().orElseThrow();
    assertThat(endpoint.tls().caCertificate()).contains(pki.file("ca.crt"));
    assertThat(endpoint.tls().pinnedServerSha256()).isEmpty();
  }

  @Test
  void bothTrustAnchorsAreRefused() throws Exception {
    assertThat(
            problems(
                "{client_cert: pki/client.crt, client_key: pki/client.key, ca_cert: pki/ca.crt,"
                    + " server_sha256: \""
                    + pki.sha256("server.crt")
                    + "\"}"))
        .containsExactly(
            "incus.ovn_northbound_tls needs exactly one of ca_cert (the CA that signed the"
                + " server's certificate) and server_sha256 (the server certificate's SHA-256, as"
                + " `openssl x509 -noout -fingerprint -sha256` prints it), got both");
  }

  @Test
  void neitherTrustAnchorIsRefused() throws Exception {
    assertThat(problems("{client_cert: pki/client.crt, client_key: pki/client.key}"))
        .singleElement()
        .asString()
        .startsWith("incus.ovn_northbound_tls needs exactly one of ca_cert")
        .endsWith("got neither");
  }

  @Test
  void missingFilesAreNamed() throws Exception {
    assertThat(problems("{client_cert: pki/nope.crt, ca_cert: pki}"))
        .containsExactly(
            "incus.ovn_northbound_tls.client_cert " + pki.file("nope.crt") + ": no such file",
            "incus.ovn_northbound_tls.client_key is required: the path of a PEM file",
            "incus.ovn_northbound_tls.ca_cert "
                + pki.dir()
                + ": not a file; name the PEM file"
                + " itself");
  }

  @Test
  void aFingerprintMustBeSha256() throws Exception {
    assertThat(
            problems(
                "{client_cert: pki/client.crt, client_key: pki/client.key, server_sha256: ab:cd}"))
        .containsExactly(
            "incus.ovn_northbound_tls.server_sha256 must be 64 hex digits (colons allowed), got"
                + " \"ab:cd\"");
  }

  @Test
  void aFileThatIsNotPemIsRefusedAtLoad() throws Exception {
    Files.writeString(dir.resolve("pki/garbage.key"), "not a key\n");
    assertThat(
            problems(
                "{client_cert: pki/client.crt, client_key: pki/garbage.key, ca_cert: pki/ca.crt}"))
        .singleElement()
        .asString()
        .startsWith("incus.ovn_northbound_tls: cannot set up TLS from ")
        .contains(
            "no unencrypted PEM PRIVATE KEY or RSA PRIVATE KEY in "
                + dir.resolve("pki/garbage.key"));
  }
}
