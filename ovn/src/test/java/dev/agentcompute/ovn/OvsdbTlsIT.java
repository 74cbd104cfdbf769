package dev.agentcompute.ovn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ssl: endpoints against a private ovsdb-server with pssl, a throw-away CA and client certificates.
 */
class OvsdbTlsIT {
  private static final OvsdbOptions QUICK =
      OvsdbOptions.defaults().withReconnect(Duration.ofMillis(50), Duration.ofMillis(200));
  private static Path dir;
  private static PrivateOvsdbServer server;

  @BeforeAll
  static void startTlsServer() throws Exception {
    dir = Files.createTempDirectory("ovsdb-tls-it-");
    openssl(
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
      openssl(
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
      openssl(
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
    // the same client key in the traditional PKCS#1 form ovs-pki and older openssl write
    openssl("rsa", "-in", "client.key", "-traditional", "-out", "client-pkcs1.key");
    // a client certificate from a CA the server does not know
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "rogue.key",
        "-out",
        "rogue.crt",
        "-subj",
        "/CN=rogue",
        "-days",
        "2");
    server =
        PrivateOvsdbServer.startTls(
            dir.resolve("db"),
            dir.resolve("server.key"),
            dir.resolve("server.crt"),
            dir.resolve("ca.crt"));
  }

  private static void openssl(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static OvsdbEndpoint endpoint(TlsSettings tls) {
    return OvsdbEndpoint.tls("127.0.0.1", server.port(), tls);
  }

  @Test
  void connectsWithAClientCertificateAndTheCa() {
    try (OvsdbClient client =
        OvsdbClient.connect(
            endpoint(
                TlsSettings.withCa(
                    dir.resolve("client.key"), dir.resolve("client.crt"), dir.resolve("ca.crt"))),
            QUICK)) {
      assertThat(client.listDbs()).contains(OvnNorthbound.DATABASE);
      assertThat(client.endpoint().toString()).startsWith("ssl:127.0.0.1:");
    }
  }

  @Test
  void connectsWithAPinnedServerCertificateAndAPkcs1Key() throws Exception {
    try (OvsdbClient client =
        OvsdbClient.connect(
            endpoint(
                TlsSettings.pinned(
                    dir.resolve("client-pkcs1.key"),
                    dir.resolve("client.crt"),
                    sha256(dir.resolve("server.crt")))),
            QUICK)) {
      assertThat(client.listDbs()).contains(OvnNorthbound.DATABASE);
    }
  }

  @Test
  void createsListsAndDeletesARowThroughTheNorthboundOverTls() throws Exception {
    String name = "ls_tls_" + Long.toHexString(System.nanoTime());
    try (OvnNorthbound nb =
        OvnNorthbound.connect(
            endpoint(
                TlsSettings.pinned(
                    dir.resolve("client.key"),
                    dir.resolve("client.crt"),
                    sha256(dir.resolve("server.crt")))),
            QUICK)) {
      nb.transact(
          Operation.insert("Logical_Switch")
              .value("name", name)
              .value("external_ids", java.util.Map.of("test", "tls")));
      // ovsdb-server sends the monitor update before the transact reply
      assertThat(nb.list(NbTable.LOGICAL_SWITCH)).extracting(LogicalSwitch::name).contains(name);
      nb.transact(Operation.delete("Logical_Switch").where(Condition.eq("name", name)));
      assertThat(nb.byName(NbTable.LOGICAL_SWITCH, name)).isEmpty();
    }
  }

  @Test
  void refusesAServerWhoseCertificateIsNotThePinnedOne() throws Exception {
    TlsSettings wrongPin =
        TlsSettings.pinned(
            dir.resolve("client.key"), dir.resolve("client.crt"), sha256(dir.resolve("ca.crt")));
    assertThatThrownBy(() -> OvsdbClient.connect(endpoint(wrongPin), shortConnect()))
        .isInstanceOf(OvsdbConnectionException.class)
        .hasMessageContaining("ssl:127.0.0.1")
        .hasMessageContaining(
            "server certificate SHA-256 "
                + sha256(dir.resolve("server.crt")).replace(":", "").toLowerCase()
                + " is not the pinned "
                + sha256(dir.resolve("ca.crt")).replace(":", "").toLowerCase());
  }

  @Test
  void theServerRefusesAClientCertificateFromAnotherCa() {
    TlsSettings rogue =
        TlsSettings.withCa(
            dir.resolve("rogue.key"), dir.resolve("rogue.crt"), dir.resolve("ca.crt"));
    assertThatThrownBy(
            () -> {
              try (OvsdbClient client = OvsdbClient.connect(endpoint(rogue), shortConnect())) {
                client.listDbs(); // TLS 1.3 may report the rejected certificate only on first use
              }
            })
        .isInstanceOf(OvsdbConnectionException.class);
  }

  private static OvsdbOptions shortConnect() {
    return new OvsdbOptions(
        Duration.ofSeconds(1),
        QUICK.requestTimeout(),
        QUICK.probeInterval(),
        QUICK.reconnectMin(),
        QUICK.reconnectMax());
  }

  private static String sha256(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
      return HexFormat.ofDelimiter(":").formatHex(MessageDigest.getInstance("SHA-256").digest(der));
    }
  }
}
