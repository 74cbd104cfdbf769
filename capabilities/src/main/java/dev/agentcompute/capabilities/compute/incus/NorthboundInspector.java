package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import dev.agentcompute.capabilities.compute.NetworkInspection;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.NetworkAcl;
import dev.agentcompute.incus.NetworkState;
import dev.agentcompute.ovn.Acl;
import dev.agentcompute.ovn.LogicalSwitch;
import dev.agentcompute.ovn.LogicalSwitchPort;
import dev.agentcompute.ovn.NbTable;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.ovn.PortGroup;
import dev.agentcompute.ovn.Uuid;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * net.inspect: what OVN enforces for one sandbox network, read from the northbound database. Incus
 * names the network's internal logical switch in {@code GET /1.0/networks/<n>/state}; every Incus ACL
 * on the network is a port group {@code incus_acl<id>} (its rows) with a per-network port group
 * tagged {@code incus_switch=<switch>, incus_port_group=incus_acl<id>}. The baseline is the older
 * ACL (Incus ids grow, and the baseline exists before any network's agent ACL); rows are matched to
 * rule ids by the rule's destination, port, protocol, action and direction.
 */
final class NorthboundInspector {
  private final Optional<OvnNorthbound> northbound;

  NorthboundInspector(Optional<OvnNorthbound> northbound) {
    this.northbound = northbound;
  }

  NetworkInspection inspect(IncusClient project, String network, NetworkAcl baselineAcl, NetworkAcl agentAcl) {
    OvnNorthbound nb = northbound.filter(OvnNorthbound::isConnected)
        .orElseThrow(() -> new BackendException(Kind.UNAVAILABLE, "the OVN northbound database is not connected"));
    NetworkState state = project.networks().state(network);
    if (state.ovn() == null || state.ovn().logicalSwitch() == null) {
      throw new BackendException(Kind.FAILED, "network " + network + " reports no OVN logical switch");
    }
    String switchName = state.ovn().logicalSwitch();
    LogicalSwitch ls = nb.byName(NbTable.LOGICAL_SWITCH, switchName)
        .orElseThrow(() -> new BackendException(Kind.FAILED, "logical switch " + switchName + " is not in the northbound database"));
    List<String> aclGroups = new ArrayList<>();
    for (PortGroup group : nb.list(NbTable.PORT_GROUP)) {
      String owner = group.externalIds().get("incus_port_group");
      if (switchName.equals(group.externalIds().get("incus_switch")) && owner != null && !aclGroups.contains(owner)) {
        aclGroups.add(owner);
      }
    }
    aclGroups.sort(Comparator.comparingLong(NorthboundInspector::aclNumber));
    List<NetworkInspection.Rule> rules = new ArrayList<>();
    for (int i = 0; i < aclGroups.size(); i++) {
      boolean baseline = i == 0 && aclGroups.size() > 1;
      String aclLabel = baseline ? "baseline" : "agent";
      NetworkAcl known = baseline ? baselineAcl : agentAcl;
      Set<String> taken = new HashSet<>();
      Optional<PortGroup> group = nb.byName(NbTable.PORT_GROUP, aclGroups.get(i));
      if (group.isEmpty()) {
        continue;
      }
      for (Uuid uuid : group.get().acls()) {
        nb.get(NbTable.ACL, uuid).ifPresent(row -> {
          String id = ruleId(row, known, taken);
          rules.add(new NetworkInspection.Rule(aclLabel, id, row.priority(), row.direction(), row.action(), row.match()));
        });
      }
    }
    rules.sort(Comparator.comparingLong(NetworkInspection.Rule::priority).reversed()
        .thenComparing(NetworkInspection.Rule::acl).thenComparing(NetworkInspection.Rule::match));
    List<NetworkInspection.Port> ports = new ArrayList<>();
    for (Uuid uuid : ls.ports()) {
      nb.get(NbTable.LOGICAL_SWITCH_PORT, uuid).ifPresent(port -> ports.add(portOf(port)));
    }
    ports.sort(Comparator.comparing(NetworkInspection.Port::name));
    return new NetworkInspection(network, switchName, rules, ports);
  }

  private static NetworkInspection.Port portOf(LogicalSwitchPort port) {
    List<String> addresses = new ArrayList<>(port.addresses());
    port.dynamicAddresses().ifPresent(addresses::add);
    addresses.sort(Comparator.naturalOrder());
    return new NetworkInspection.Port(port.name(), port.type(), addresses);
  }

  private static long aclNumber(String group) {
    String digits = group.replaceAll("\\D", "");
    return digits.isEmpty() || digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
  }

  /**
   * The id of the first not yet matched rule of the row's direction whose fields all appear in the row,
   * else empty. Incus matches egress rules (traffic leaving the instance) on {@code inport == @group},
   * ingress rules on {@code outport == @group}.
   */
  static String ruleId(Acl row, NetworkAcl acl, Set<String> taken) {
    boolean egress = row.match().contains("inport == @");
    for (NetworkAcl.Rule rule : egress ? acl.egress() : acl.ingress()) {
      String id = rule.description() == null || !rule.description().startsWith(OvnAcls.ID_PREFIX) ? ""
          : rule.description().substring(OvnAcls.ID_PREFIX.length());
      if (id.isEmpty() || taken.contains(id) || !row.action().startsWith(rule.action())) {
        continue;
      }
      String match = row.match();
      if (present(rule.destination()) && !match.contains(rule.destination())) {
        continue;
      }
      if (present(rule.source()) && !match.contains(rule.source())) {
        continue;
      }
      if (present(rule.destinationPort()) && !match.contains(".dst == " + rule.destinationPort())) {
        continue;
      }
      if (present(rule.protocol()) && !match.contains(rule.protocol())) {
        continue;
      }
      taken.add(id);
      return id;
    }
    return "";
  }

  private static boolean present(String value) {
    return value != null && !value.isEmpty();
  }
}
