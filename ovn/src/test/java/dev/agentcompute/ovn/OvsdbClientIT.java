package dev.agentcompute.ovn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against the shared OVN_Northbound ovsdb-server of dev/setup; every row it makes has a unique
 * name.
 */
class OvsdbClientIT {
  private static final String NB = OvnNorthbound.DATABASE;
  private OvsdbClient client;
  private final String name = SharedNorthbound.uniqueName("it-ls");

  @BeforeEach
  void connect() {
    client = OvsdbClient.connect(SharedNorthbound.unix());
  }

  @AfterEach
  void cleanUp() {
    if (client.isConnected()) {
      client.transact(NB, Operation.delete("Logical_Switch").where(Condition.eq("name", name)));
    }
    client.close();
  }

  @Test
  void listDbsReportsTheNorthboundDatabaseOverTcpAndUnix() {
    assertThat(client.listDbs()).contains(NB);
    try (OvsdbClient tcp = OvsdbClient.connect(SharedNorthbound.tcp())) {
      assertThat(tcp.isConnected()).isTrue();
      assertThat(tcp.listDbs()).contains(NB);
    }
  }

  @Test
  void getSchemaDescribesTheNorthboundTables() {
    DatabaseSchema schema = client.getSchema(NB);
    assertThat(schema.name()).isEqualTo(NB);
    assertThat(schema.version()).matches("\\d+\\.\\d+\\.\\d+");
    assertThat(schema.tables())
        .containsKeys(
            "Logical_Switch",
            "Logical_Switch_Port",
            "Logical_Router",
            "ACL",
            "Port_Group",
            "Address_Set",
            "NAT",
            "Load_Balancer");
    assertThat(schema.tables().get("Logical_Switch")).contains("name", "ports", "external_ids");
    assertThatThrownBy(() -> client.getSchema("No_Such_Db"))
        .isInstanceOfSatisfying(
            OvsdbRpcException.class, e -> assertThat(e.error()).isEqualTo("unknown database"));
  }

  @Test
  void insertUpdateMutateDeleteALogicalSwitch() {
    Uuid uuid =
        client
            .transact(
                NB,
                Operation.insert("Logical_Switch")
                    .value("name", name)
                    .value("external_ids", Map.of("agentcompute.test", "yes")))
            .getFirst()
            .insertedUuid();

    Row row = selectOne();
    assertThat(row.uuid()).isEqualTo(uuid);
    assertThat(row.stringMap("external_ids")).containsEntry("agentcompute.test", "yes");

    List<OperationResult> updated =
        client.transact(
            NB,
            Operation.update("Logical_Switch")
                .where(Condition.uuidIs(uuid))
                .set("other_config", Map.of("mcast_snoop", "true")));
    assertThat(updated.getFirst().count()).contains(1L);
    assertThat(selectOne().stringMap("other_config"))
        .containsExactly(Map.entry("mcast_snoop", "true"));

    client.transact(
        NB,
        Operation.mutate("Logical_Switch")
            .where(Condition.eq("name", name))
            .with(
                Mutation.insert("external_ids", Map.of("second", "2")),
                Mutation.delete("external_ids", Set.of("agentcompute.test"))));
    assertThat(selectOne().stringMap("external_ids")).containsExactly(Map.entry("second", "2"));

    List<OperationResult> deleted =
        client.transact(NB, Operation.delete("Logical_Switch").where(Condition.uuidIs(uuid)));
    assertThat(deleted.getFirst().count()).contains(1L);
    assertThat(select()).isEmpty();
  }

  @Test
  void namedUuidLinksRowsInsertedInOneTransaction() {
    String port = name + "-p0";
    Operation.Insert lsp =
        Operation.insert("Logical_Switch_Port")
            .value("name", port)
            .value("addresses", Set.of("00:16:3e:00:00:01 10.0.0.5"))
            .uuidName("new_port");
    List<OperationResult> results =
        client.transact(
            NB,
            lsp,
            Operation.insert("Logical_Switch")
                .value("name", name)
                .value("ports", Set.of(lsp.ref())),
            Operation.comment("agentcompute ovn IT"));
    Uuid portUuid = results.get(0).insertedUuid();
    assertThat(selectOne().set("ports", Uuid.class)).containsExactly(portUuid);

    Row portRow =
        client
            .transact(NB, Operation.select("Logical_Switch_Port").where(Condition.uuidIs(portUuid)))
            .getFirst()
            .rows()
            .getFirst();
    assertThat(portRow.set("addresses", String.class))
        .containsExactly("00:16:3e:00:00:01 10.0.0.5");

    client.transact(NB, Operation.delete("Logical_Switch").where(Condition.eq("name", name)));
    // the port is not a root row: with its switch gone the server garbage-collects it
    assertThat(
            client
                .transact(
                    NB, Operation.select("Logical_Switch_Port").where(Condition.uuidIs(portUuid)))
                .getFirst()
                .rows())
        .isEmpty();
  }

  @Test
  void aFailedOperationRollsBackTheTransactionAndCarriesTheServerError() {
    assertThatThrownBy(
            () ->
                client.transact(
                    NB,
                    Operation.insert("Logical_Switch").value("name", name),
                    Operation.insert("ACL")
                        .value("priority", 10)
                        .value("direction", "sideways")
                        .value("match", "1")
                        .value("action", "allow")))
        .isInstanceOfSatisfying(
            OvsdbTransactionException.class,
            e -> {
              assertThat(e.operationIndex()).isEqualTo(1);
              assertThat(e.operation()).isEqualTo("insert");
              assertThat(e.error()).isEqualTo("constraint violation");
              assertThat(e.details()).contains("sideways");
            });
    assertThat(select()).as("the first insert was rolled back").isEmpty();

    assertThatThrownBy(
            () ->
                client.transact(
                    NB,
                    Operation.update("Logical_Switch")
                        .where(Condition.eq("name", name))
                        .set("no_such_column", "x")))
        .isInstanceOfSatisfying(
            OvsdbTransactionException.class,
            e -> assertThat(e.details()).contains("no_such_column"));
  }

  @Test
  void monitorDeliversInitialInsertModifyAndDelete() throws Exception {
    BlockingQueue<TableUpdates> updates = new LinkedBlockingQueue<>();
    try (OvsdbMonitor monitor =
        client.monitor(
            NB, Map.of("Logical_Switch", List.of("name", "external_ids")), updates::add)) {
      assertThat(updates.poll(5, TimeUnit.SECONDS).initial()).isTrue();

      Uuid uuid =
          client
              .transact(NB, Operation.insert("Logical_Switch").value("name", name))
              .getFirst()
              .insertedUuid();
      RowUpdate insert = nextFor(updates, uuid);
      assertThat(insert.isInsert()).isTrue();
      assertThat(insert.after().orElseThrow().string("name")).isEqualTo(name);

      client.transact(
          NB,
          Operation.mutate("Logical_Switch")
              .where(Condition.uuidIs(uuid))
              .with(Mutation.insert("external_ids", Map.of("k", "v"))));
      RowUpdate modify = nextFor(updates, uuid);
      assertThat(modify.isModify()).isTrue();
      assertThat(modify.before().orElseThrow().stringMap("external_ids")).isEmpty();
      assertThat(modify.after().orElseThrow().stringMap("external_ids"))
          .containsExactly(Map.entry("k", "v"));

      client.transact(NB, Operation.delete("Logical_Switch").where(Condition.uuidIs(uuid)));
      RowUpdate delete = nextFor(updates, uuid);
      assertThat(delete.isDelete()).isTrue();
      assertThat(delete.before().orElseThrow().string("name")).isEqualTo(name);
    }
  }

  @Test
  void aClosedMonitorStopsDelivering() throws Exception {
    BlockingQueue<TableUpdates> updates = new LinkedBlockingQueue<>();
    OvsdbMonitor monitor =
        client.monitor(NB, Map.of("Logical_Switch", List.of("name")), updates::add);
    updates.clear();
    monitor.close();
    client.transact(NB, Operation.insert("Logical_Switch").value("name", name));
    client.echo(); // any update for the cancelled monitor would have arrived before this answer
    assertThat(updates).isEmpty();
  }

  @Test
  void requestTimeoutAndCancellationLeaveTheConnectionUsable() throws Exception {
    // a wait that can never be satisfied blocks the transaction on the server until cancelled
    Operation blocked =
        Operation.waitUntil("Logical_Switch")
            .where(Condition.eq("name", name))
            .columns("name")
            .row(Map.of("name", name));
    try (OvsdbClient impatient =
        OvsdbClient.connect(
            SharedNorthbound.tcp(),
            OvsdbOptions.defaults().withRequestTimeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(() -> impatient.transact(NB, blocked))
          .isInstanceOf(OvsdbTimeoutException.class)
          .hasMessageContaining("300 ms");
      assertThat(impatient.listDbs()).contains(NB);
    }
    CompletableFuture<List<OperationResult>> pending = client.transactAsync(NB, List.of(blocked));
    Thread.sleep(100);
    assertThat(pending).isNotDone();
    assertThat(pending.cancel(true)).isTrue();
    client.echo();
    assertThat(client.listDbs()).contains(NB);
  }

  @Test
  void unreachableServerFailsWithAConnectionError() {
    OvsdbOptions quick =
        OvsdbOptions.defaults().withReconnect(Duration.ofMillis(20), Duration.ofMillis(50));
    quick =
        new OvsdbOptions(
            Duration.ofMillis(500),
            quick.requestTimeout(),
            quick.probeInterval(),
            quick.reconnectMin(),
            quick.reconnectMax());
    OvsdbOptions options = quick;
    assertThatThrownBy(
            () ->
                OvsdbClient.connect(
                    OvsdbEndpoint.unix(java.nio.file.Path.of("/nonexistent/nb.sock")), options))
        .isInstanceOf(OvsdbConnectionException.class)
        .hasMessageContaining("/nonexistent/nb.sock");
  }

  private List<Row> select() {
    return client
        .transact(NB, Operation.select("Logical_Switch").where(Condition.eq("name", name)))
        .getFirst()
        .rows();
  }

  private Row selectOne() {
    List<Row> rows = select();
    assertThat(rows).hasSize(1);
    return rows.getFirst();
  }

  static RowUpdate nextFor(BlockingQueue<TableUpdates> updates, Uuid uuid)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      TableUpdates batch = updates.poll(100, TimeUnit.MILLISECONDS);
      if (batch == null) {
        continue;
      }
      for (List<RowUpdate> rows : batch.tables().values()) {
        for (RowUpdate row : rows) {
          if (row.uuid().equals(uuid)) {
            return row;
          }
        }
      }
    }
    throw new AssertionError("no update for " + uuid + " within 5 s");
  }
}
