package dev.agentcompute.ovn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against a private ovsdb-server that the test kills, freezes and restarts (never the shared one).
 */
class OvsdbReconnectIT {
  private static final String NB = OvnNorthbound.DATABASE;
  private static final OvsdbOptions FAST =
      OvsdbOptions.defaults()
          .withReconnect(Duration.ofMillis(50), Duration.ofMillis(400))
          .withProbeInterval(Duration.ofMillis(500))
          .withRequestTimeout(Duration.ofSeconds(3));

  private PrivateOvsdbServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = PrivateOvsdbServer.startTcp();
  }

  @AfterEach
  void stopServer() throws Exception {
    server.close();
  }

  @Test
  void reconnectsAfterARestartAndResumesTheMonitor() throws Exception {
    BlockingQueue<TableUpdates> updates = new LinkedBlockingQueue<>();
    AtomicInteger losses = new AtomicInteger();
    MonitorListener listener =
        new MonitorListener() {
          @Override
          public void onUpdate(TableUpdates batch) {
            updates.add(batch);
          }

          @Override
          public void onConnectionLost(OvsdbConnectionException cause) {
            losses.incrementAndGet();
          }
        };
    try (OvsdbClient client = OvsdbClient.connect(server.tcpEndpoint(), FAST)) {
      client.monitor(NB, Map.of("Logical_Switch", List.of("name")), listener);
      assertThat(updates.take().initial()).isTrue();
      Uuid before =
          client
              .transact(NB, Operation.insert("Logical_Switch").value("name", "before-restart"))
              .getFirst()
              .insertedUuid();
      assertThat(OvsdbClientIT.nextFor(updates, before).isInsert()).isTrue();

      server.kill();
      waitUntil(() -> !client.isConnected(), "the client notices the server is gone");
      assertThat(losses.get()).isEqualTo(1);
      assertThatThrownBy(client::listDbs)
          .isInstanceOf(OvsdbConnectionException.class)
          .hasMessageContaining("not connected")
          .hasMessageContaining(server.tcpEndpoint().toString());

      server.start();
      assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();
      TableUpdates resync = updates.poll(5, TimeUnit.SECONDS);
      assertThat(resync).isNotNull();
      assertThat(resync.initial())
          .as("the re-issued monitor starts with the full content")
          .isTrue();
      assertThat(resync.table("Logical_Switch"))
          .extracting(RowUpdate::uuid)
          .containsExactly(before);

      Uuid after =
          client
              .transact(NB, Operation.insert("Logical_Switch").value("name", "after-restart"))
              .getFirst()
              .insertedUuid();
      assertThat(OvsdbClientIT.nextFor(updates, after).isInsert()).isTrue();
      client.close();
      assertThat(client.threadsStopped()).as("supervisor and reader threads ended").isTrue();
      assertThatThrownBy(client::listDbs)
          .isInstanceOf(OvsdbConnectionException.class)
          .hasMessageContaining("closed");
    }
  }

  @Test
  void answersTheServersEchoProbesWhileIdle() throws Exception {
    // ovsdb-server probes a silent client after 5 s and drops it 5 s later without an answer;
    // with our own probe far away, only answering the server's echo keeps this connection up
    OvsdbOptions quiet = FAST.withProbeInterval(Duration.ofMinutes(5));
    AtomicInteger losses = new AtomicInteger();
    try (OvsdbClient client = OvsdbClient.connect(server.tcpEndpoint(), quiet)) {
      client.monitor(
          NB,
          Map.of("NB_Global", List.of()),
          new MonitorListener() {
            @Override
            public void onUpdate(TableUpdates updates) {}

            @Override
            public void onConnectionLost(OvsdbConnectionException cause) {
              losses.incrementAndGet();
            }
          });
      Thread.sleep(11_500);
      assertThat(losses.get()).as("connection drops while idle").isZero();
      assertThat(client.listDbs()).contains(NB);
    }
  }

  @Test
  void closeWhileReconnectingEndsEveryThread() throws Exception {
    OvsdbClient client = OvsdbClient.connect(server.tcpEndpoint(), FAST);
    server.kill();
    waitUntil(() -> !client.isConnected(), "the client notices the server is gone");
    Thread.sleep(200); // now inside the backoff / reconnect loop
    client.close();
    assertThat(client.threadsStopped()).isTrue();
    assertThat(client.awaitConnected(Duration.ofMillis(100))).isFalse();
  }

  @Test
  void dropsAFrozenPeerThatStopsAnsweringEchoes() throws Exception {
    try (OvsdbClient client = OvsdbClient.connect(server.tcpEndpoint(), FAST)) {
      long pid =
          Long.parseLong(
              java.nio.file.Files.readString(server.dir().resolve("ovsdb-server.pid")).trim());
      PrivateOvsdbServer.run(List.of("kill", "-STOP", Long.toString(pid)));
      try {
        // the TCP connection stays up; only the missing echo reply reveals the dead peer
        waitUntil(() -> !client.isConnected(), "the echo probe drops the frozen connection");
      } finally {
        PrivateOvsdbServer.run(List.of("kill", "-CONT", Long.toString(pid)));
      }
      assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();
      assertThat(client.listDbs()).contains(NB);
    }
  }

  @Test
  void northboundCacheFollowsTheServerAcrossARestart() throws Exception {
    try (OvnNorthbound nb = OvnNorthbound.connect(server.tcpEndpoint(), FAST)) {
      assertThat(nb.isConnected()).isTrue();
      assertThat(nb.list(NbTable.LOGICAL_SWITCH)).isEmpty();
      nb.transact(Operation.insert("Logical_Switch").value("name", "ls-a"));
      waitUntil(() -> nb.byName(NbTable.LOGICAL_SWITCH, "ls-a").isPresent(), "the cache sees ls-a");

      server.kill();
      waitUntil(() -> !nb.isConnected(), "readiness drops with the connection");
      server.start();
      assertThat(nb.awaitReady(Duration.ofSeconds(10))).isTrue();
      assertThat(nb.list(NbTable.LOGICAL_SWITCH))
          .extracting(LogicalSwitch::name)
          .containsExactly("ls-a");
    }
  }

  @Test
  void startInTheBackgroundBecomesReadyOnceTheServerIsUp() throws Exception {
    server.kill();
    try (OvnNorthbound nb = OvnNorthbound.start(server.tcpEndpoint(), FAST)) {
      Thread.sleep(300);
      assertThat(nb.isConnected()).isFalse();
      assertThat(nb.list(NbTable.LOGICAL_SWITCH)).isEmpty();
      server.start();
      assertThat(nb.awaitReady(Duration.ofSeconds(10))).isTrue();
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
