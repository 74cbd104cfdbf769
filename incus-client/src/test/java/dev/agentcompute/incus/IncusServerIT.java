package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The first contact: the real incusd over its Unix socket, and how its errors come back. */
class IncusServerIT {

  @Test
  void getsServerInfoOverTheUnixSocket() {
    try (IncusClient client = IncusTestDaemon.client()) {
      ServerInfo info = client.info();
      assertThat(info.apiVersion()).isEqualTo("1.0");
      assertThat(info.trusted()).isTrue();
      assertThat(info.authUserMethod()).isEqualTo("unix");
      assertThat(info.apiExtensions()).contains("network_allocations", "operation_wait");
      assertThat(info.environment().serverVersion()).isNotBlank();
      assertThat(info.environment().certificate()).contains("-----BEGIN CERTIFICATE-----");
      assertThat(client.endpoint()).startsWith("unix:");
    }
  }

  @Test
  void missingObjectsAreNotFoundWithTheServerMessage() {
    try (IncusClient client = IncusTestDaemon.client()) {
      String name = IncusTestDaemon.name("it-missing");
      assertThatThrownBy(() -> client.instances().get(name))
          .isInstanceOf(IncusException.NotFound.class)
          .hasMessageContaining(name)
          .hasMessageContaining("not found");
      assertThatThrownBy(() -> client.projects().get(name))
          .isInstanceOf(IncusException.NotFound.class);
    }
  }

  @Test
  void anAbsentSocketIsUnavailable() {
    try (IncusClient client =
        IncusClient.unixSocket(Path.of("/nonexistent/incus/unix.socket")).build()) {
      assertThatThrownBy(client::info)
          .isInstanceOf(IncusException.Unavailable.class)
          .hasMessageContaining("GET /1.0");
    }
  }

  @Test
  void standaloneServerReportsNoClusterAndRefusesMemberListing() {
    try (IncusClient client = IncusTestDaemon.client()) {
      ClusterInfo cluster = client.cluster().info();
      assertThat(cluster.enabled()).isFalse();
      assertThatThrownBy(() -> client.cluster().members())
          .isInstanceOf(IncusException.Failed.class)
          .hasMessageContaining("not clustered");
      assertThatThrownBy(
              () -> client.cluster().memberState(client.info().environment().serverName()))
          .isInstanceOf(IncusException.NotFound.class);
      // The target parameter reaches the server: an unknown member is refused by name.
      String name = IncusTestDaemon.name("it");
      assertThatThrownBy(
              () ->
                  client
                      .onTarget("no-such-member")
                      .networks()
                      .create(NetworkSpec.bridge(name, java.util.Map.of())))
          .isInstanceOf(IncusException.NotFound.class)
          .hasMessageContaining("target=no-such-member")
          .hasMessageContaining("Cluster member not found");
      assertThatThrownBy(() -> client.networks().get(name))
          .isInstanceOf(IncusException.NotFound.class);
    }
  }

  @Test
  void aPooledConnectionIsReusableAfterIdling() throws InterruptedException {
    // HttpClient's stale check after 2 s of inactivity used to block on the Unix socket until
    // incusd dropped the connection (~30 s): a hang, not a slowness, hence the bound.
    try (IncusClient client = IncusTestDaemon.client()) {
      client.info();
      Thread.sleep(3_000);
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          java.time.Duration.ofSeconds(10),
          () -> assertThat(client.info().apiVersion()).isEqualTo("1.0"));
    }
  }

  @Test
  void closingTheClientStopsItsThreads() {
    long before = clientThreads();
    IncusClient client = IncusTestDaemon.client();
    client.info();
    assertThat(clientThreads()).isGreaterThan(before);
    client.close();
    ExecIT.waitUntil(() -> clientThreads() == before, java.time.Duration.ofSeconds(5));
    assertThat(clientThreads()).isEqualTo(before);
  }

  private static long clientThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(
            n ->
                n.startsWith("incus-client-watchdog")
                    || n.toLowerCase(java.util.Locale.ROOT).contains("evictor"))
        .count();
  }

  @Test
  void interruptedCallerGetsCancelledBeforeAnythingIsSent() {
    try (IncusClient client = IncusTestDaemon.client()) {
      Thread.currentThread().interrupt();
      try {
        assertThatThrownBy(client::info).isInstanceOf(IncusException.Cancelled.class);
      } finally {
        Thread.interrupted();
      }
      assertThat(client.info().apiVersion()).isEqualTo("1.0");
    }
  }
}
