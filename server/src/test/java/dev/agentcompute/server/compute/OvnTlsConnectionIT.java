package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.ovn.Condition;
import dev.agentcompute.ovn.LogicalSwitch;
import dev.agentcompute.ovn.NbTable;
import dev.agentcompute.ovn.Operation;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.server.config.ConfigLoader;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.config.TestPki;
import dev.agentcompute.server.errors.StartupException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code incus.ovn_northbound: ssl:…} from the configuration file to a row: a real ovsdb-server
 * with the OVN_Northbound schema, started here on loopback with {@code
 * --remote=pssl:PORT:127.0.0.1} and certificates openssl makes, is reached through the loaded
 * configuration.
 */
class OvnTlsConnectionIT {
  private static final Path SCHEMA = Path.of("/usr/share/ovn/ovn-nb.ovsschema");
  private static Path dir;
  private static TestPki pki;
  private static int port;
  private static Process server;

  @BeforeAll
  static void startTlsNorthbound() throws Exception {
    dir = Files.createTempDirectory("ovn-tls-config-it-");
    pki = TestPki.create(Files.createDirectories(dir.resolve("pki")));
    run("ovsdb-tool", "create", dir.resolve("nb.db").toString(), SCHEMA.toString());
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    server =
        new ProcessBuilder(
                "ovsdb-server",
                dir.resolve("nb.db").toString(),
                "--remote=pssl:" + port + ":127.0.0.1",
                "--private-key=" + pki.file("server.key"),
                "--certificate=" + pki.file("server.crt"),
                "--ca-cert=" + pki.file("ca.crt"),
                "--pidfile=" + dir.resolve("nb.pid"),
                "--unixctl=" + dir.resolve("nb.ctl"),
                "--log-file=" + dir.resolve("nb.log"))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("stdout.log").toFile())
            .start();
    // the control socket appears once the server is up (a bare TCP probe would log a bad handshake)
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Files.exists(dir.resolve("nb.ctl"))) {
      if (!server.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "ovsdb-server did not start: " + Files.readString(dir.resolve("stdout.log")));
      }
      Thread.sleep(20);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static ServerConfig.Incus config(String trust) throws IOException {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(
        file,
        "incus:\n"
            + "  remote: local\n"
            + "  pool: default\n"
            + "  ovn_uplink: uplink0\n"
            + "  ovn_northbound: \"ssl:127.0.0.1:"
            + port
            + "\"\n"
            + "  ovn_northbound_tls: {client_cert: pki/client.crt, client_key: pki/client.key, "
            + trust
            + "}\n"
            + "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n");
    return ConfigLoader.load(file).config().incus();
  }

  @Test
  void createsListsAndDeletesARowOverTheConfiguredSslConnection() throws Exception {
    String name = "ls_config_tls_" + Long.toHexString(System.nanoTime());
    try (OvnConnection ovn =
        OvnConnection.open(config("server_sha256: \"" + pki.sha256("server.crt") + "\""))) {
      OvnNorthbound nb = ovn.northbound().orElseThrow();
      assertThat(ovn.readiness().orElseThrow().check().up()).isTrue();
      nb.transact(
          Operation.insert("Logical_Switch")
              .value("name", name)
              .value("external_ids", Map.of("test", "config-tls")));
      assertThat(nb.list(NbTable.LOGICAL_SWITCH)).extracting(LogicalSwitch::name).contains(name);
      nb.transact(Operation.delete("Logical_Switch").where(Condition.eq("name", name)));
      assertThat(nb.byName(NbTable.LOGICAL_SWITCH, name)).isEmpty();
    }
  }

  @Test
  void aCaCertificateIsTrustedToo() throws Exception {
    try (OvnConnection ovn = OvnConnection.open(config("ca_cert: pki/ca.crt"))) {
      assertThat(ovn.northbound().orElseThrow().client().listDbs())
          .contains(OvnNorthbound.DATABASE);
    }
  }

  @Test
  void aWrongPinFailsStartupNamingBothFingerprints() throws Exception {
    String wrong = pki.sha256("ca.crt");
    ServerConfig.Incus incus = config("server_sha256: \"" + wrong + "\"");
    assertThatThrownBy(() -> OvnConnection.open(incus).close())
        .isInstanceOf(StartupException.class)
        .hasMessageStartingWith(
            "cannot connect to the OVN northbound database at ssl:127.0.0.1:" + port + ": ")
        .hasMessageContaining(
            "server certificate SHA-256 "
                + pki.sha256("server.crt").replace(":", "").toLowerCase()
                + " is not the pinned "
                + wrong.replace(":", "").toLowerCase());
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }
}
