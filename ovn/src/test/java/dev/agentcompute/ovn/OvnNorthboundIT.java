package dev.agentcompute.ovn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The typed views and the monitor-backed cache, against the shared northbound database. */
class OvnNorthboundIT {
  private final String id = SharedNorthbound.uniqueName("it").replace('-', '_');
  private OvnNorthbound nb;

  @BeforeEach
  void connect() {
    nb = OvnNorthbound.connect(SharedNorthbound.unix());
  }

  @AfterEach
  void cleanUp() {
    try {
      nb.transact(
          Operation.delete("Logical_Switch").where(Condition.eq("name", "ls_" + id)),
          Operation.delete("Logical_Router").where(Condition.eq("name", "lr_" + id)),
          Operation.delete("Port_Group").where(Condition.eq("name", "pg_" + id)),
          Operation.delete("Load_Balancer").where(Condition.eq("name", "lb_" + id)),
          Operation.delete("Address_Set").where(Condition.eq("name", "as_" + id)));
    } finally {
      nb.close();
    }
  }

  @Test
  void readsEveryTableItWroteThroughTheCache() {
    assertThat(nb.isConnected()).isTrue();
    Operation.Insert addressSet =
        Operation.insert("Address_Set")
            .value("name", "as_" + id)
            .value("addresses", Set.of("10.0.0.1", "10.0.0.2"));
    Operation.Insert acl =
        Operation.insert("ACL")
            .uuidName("acl")
            .value("name", "acl_" + id)
            .value("priority", 1001)
            .value("direction", "to-lport")
            .value("match", "ip4.src == $as_" + id)
            .value("action", "allow-related")
            .value("log", false)
            .value("external_ids", Map.of("owner", id));
    Operation.Insert port =
        Operation.insert("Logical_Switch_Port")
            .uuidName("lsp")
            .value("name", "lsp_" + id)
            .value("addresses", Set.of("00:16:3e:00:00:02 10.0.0.5"))
            .value("enabled", true);
    Operation.Insert lb =
        Operation.insert("Load_Balancer")
            .uuidName("lb")
            .value("name", "lb_" + id)
            .value("vips", Map.of("10.90.1.10:80", "10.0.0.5:8080"))
            .value("protocol", "tcp");
    Operation.Insert nat =
        Operation.insert("NAT")
            .uuidName("nat")
            .value("type", "snat")
            .value("external_ip", "10.90.0.100")
            .value("logical_ip", "10.0.0.0/24");
    List<OperationResult> results =
        nb.transact(
            addressSet,
            acl,
            port,
            lb,
            nat,
            Operation.insert("Port_Group")
                .value("name", "pg_" + id)
                .value("acls", Set.of(acl.ref()))
                .value("ports", Set.of(port.ref())),
            Operation.insert("Logical_Switch")
                .value("name", "ls_" + id)
                .value("ports", Set.of(port.ref()))
                .value("load_balancer", Set.of(lb.ref()))
                .value("external_ids", Map.of("owner", id)),
            Operation.insert("Logical_Router")
                .value("name", "lr_" + id)
                .value("nat", Set.of(nat.ref()))
                .value("load_balancer", Set.of(lb.ref()))
                .value("enabled", true));
    Uuid portUuid = results.get(2).insertedUuid();
    Uuid natUuid = results.get(4).insertedUuid();

    // ovsdb-server sends the monitor update before the transact reply: the cache already has it
    LogicalSwitch ls = nb.byName(NbTable.LOGICAL_SWITCH, "ls_" + id).orElseThrow();
    assertThat(ls.ports()).containsExactly(portUuid);
    assertThat(ls.loadBalancers()).containsExactly(results.get(3).insertedUuid());
    assertThat(ls.externalIds()).containsEntry("owner", id);
    assertThat(nb.get(NbTable.LOGICAL_SWITCH, ls.uuid())).contains(ls);

    LogicalSwitchPort lsp = nb.get(NbTable.LOGICAL_SWITCH_PORT, portUuid).orElseThrow();
    assertThat(lsp.name()).isEqualTo("lsp_" + id);
    assertThat(lsp.addresses()).containsExactly("00:16:3e:00:00:02 10.0.0.5");
    assertThat(lsp.enabled()).contains(true);
    // "up" is northd's to write: absent without ovn-northd, false once it sees an unbound port
    // (dev/test runs the whole OVN stack; the plain dev/setup database has no northd).
    assertThat(lsp.up().orElse(false)).isFalse();
    assertThat(lsp.type()).isEmpty();

    Acl readAcl = nb.byName(NbTable.ACL, "acl_" + id).orElseThrow();
    assertThat(readAcl.priority()).isEqualTo(1001);
    assertThat(readAcl.direction()).isEqualTo("to-lport");
    assertThat(readAcl.action()).isEqualTo("allow-related");
    assertThat(readAcl.match()).isEqualTo("ip4.src == $as_" + id);
    assertThat(readAcl.severity()).isEmpty();

    PortGroup pg = nb.byName(NbTable.PORT_GROUP, "pg_" + id).orElseThrow();
    assertThat(pg.acls()).containsExactly(readAcl.uuid());
    assertThat(pg.ports()).containsExactly(portUuid);

    assertThat(nb.byName(NbTable.ADDRESS_SET, "as_" + id).orElseThrow().addresses())
        .containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");

    LoadBalancer readLb = nb.byName(NbTable.LOAD_BALANCER, "lb_" + id).orElseThrow();
    assertThat(readLb.vips()).containsExactly(Map.entry("10.90.1.10:80", "10.0.0.5:8080"));
    assertThat(readLb.protocol()).contains("tcp");

    LogicalRouter lr = nb.byName(NbTable.LOGICAL_ROUTER, "lr_" + id).orElseThrow();
    assertThat(lr.nat()).containsExactly(natUuid);
    assertThat(lr.enabled()).contains(true);

    Nat readNat = nb.get(NbTable.NAT, natUuid).orElseThrow();
    assertThat(readNat.type()).isEqualTo("snat");
    assertThat(readNat.externalIp()).isEqualTo("10.90.0.100");
    assertThat(readNat.logicalIp()).isEqualTo("10.0.0.0/24");
    assertThat(readNat.logicalPort()).isEmpty();
    assertThat(nb.byName(NbTable.NAT, "anything")).isEmpty();

    assertThat(nb.list(NbTable.LOGICAL_SWITCH))
        .extracting(LogicalSwitch::name)
        .contains("ls_" + id);

    nb.transact(Operation.delete("Logical_Switch").where(Condition.eq("name", "ls_" + id)));
    assertThat(nb.byName(NbTable.LOGICAL_SWITCH, "ls_" + id)).isEmpty();
    assertThat(nb.get(NbTable.LOGICAL_SWITCH_PORT, portUuid))
        .as("a port group holds its ports weakly, so the port goes with its switch")
        .isEmpty();
  }
}
