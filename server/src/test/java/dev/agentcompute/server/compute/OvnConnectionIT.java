package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.ReadinessCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The configured northbound database is connected at startup and reported by readiness. */
class OvnConnectionIT {

  private static ServerConfig.Incus incusWith(Optional<OvsdbEndpoint> northbound) {
    return new ServerConfig.Incus(
        Optional.of("local"),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        "default",
        Optional.of("uplink"),
        Optional.of("10.0.0.0/28"),
        "default",
        northbound);
  }

  private static Path northboundSocket() {
    String env = System.getenv("AGENTCOMPUTE_OVN_NB_UNIX");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("agentcompute.root", "."), ".state/ovn/ovnnb_db.sock");
  }

  @Test
  void connectsToTheRealNorthboundDatabaseAndReportsReady() throws Exception {
    Path socket = northboundSocket();
    assertThat(Files.exists(socket)).as("dev/setup's northbound socket %s", socket).isTrue();
    try (OvnConnection ovn =
        OvnConnection.open(incusWith(Optional.of(OvsdbEndpoint.parse("unix:" + socket))))) {
      assertThat(ovn.northbound()).isPresent();
      ReadinessCheck check = ovn.readiness().orElseThrow();
      assertThat(check.name()).isEqualTo("ovn-northbound");
      assertThat(check.check().up()).isTrue();
      assertThat(check.check().details()).containsEntry("endpoint", "unix:" + socket);
    }
  }

  @Test
  void withoutAnEndpointThereIsNoConnectionAndNoCheck() {
    try (OvnConnection ovn = OvnConnection.open(incusWith(Optional.empty()))) {
      assertThat(ovn.northbound()).isEmpty();
      assertThat(ovn.readiness()).isEmpty();
    }
  }

  @Test
  void anUnreachableDatabaseFailsStartupNamingIt() {
    assertThatThrownBy(
            () ->
                OvnConnection.open(
                    incusWith(Optional.of(OvsdbEndpoint.parse("unix:/nonexistent/ovnnb_db.sock")))))
        .isInstanceOf(StartupException.class)
        .hasMessageStartingWith(
            "cannot connect to the OVN northbound database at unix:/nonexistent/ovnnb_db.sock: ");
  }
}
