package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.NetworkInspection;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * net.inspect: what OVN enforces for one sandbox network, read from the northbound database.
 *
 * <p>Incus names the network's internal logical switch in {@code GET /1.0/networks/<n>/state}.
 * Every Incus ACL on a network is a port group {@code incus_acl<id>} holding the ACL's rows, plus
 * one per-network port group tagged {@code incus_switch=<switch>, incus_port_group=incus_acl<id>}.
 * The {@code <id>} is Incus' internal database id, which its API never shows, and neither the rows
 * nor the port groups carry the ACL's name. So each of the network's two ACL port groups is mapped
 * to the baseline or the agent ACL by its content: a port group is an ACL's when its rows and the
 * ACL's rules pair up one to one (same direction, action, destination, source, port and protocol).
 * When both mappings fit (the two ACLs hold rules of the same shapes), the number of networks each
 * ACL is used by decides (the baseline is on every network of the sandbox, an agent ACL on one);
 * when that does not decide either, inspect fails rather than guess.
 */
final class NorthboundInspector {
  static final String BASELINE = "baseline";
  static final String AGENT = "agent";

  /** How long a mismatch may be the monitor cache still catching up with what Incus just wrote. */
  private static final long SETTLE_NANOS = 3_000_000_000L;

  private static final Duration SETTLE_POLL = Duration.ofMillis(50);

  private final Optional<OvnNorthbound> northbound;

  NorthboundInspector(Optional<OvnNorthbound> northbound) {
    this.northbound = northbound;
  }

  NetworkInspection inspect(
      IncusClient project, String network, NetworkAcl baselineAcl, NetworkAcl agentAcl) {
    OvnNorthbound nb =
        northbound
            .filter(OvnNorthbound::isConnected)
            .orElseThrow(
                () ->
                    new BackendException(
                        Kind.UNAVAILABLE, "the OVN northbound database is not connected"));
    NetworkState state = project.networks().state(network);
    if (state.ovn() == null || state.ovn().logicalSwitch() == null) {
      throw new BackendException(
          Kind.FAILED, "network " + network + " reports no OVN logical switch");
    }
    String switchName = state.ovn().logicalSwitch();
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (true) {
      try {
        return read(nb, network, switchName, baselineAcl, agentAcl);
      } catch (Unsettled e) {
        if (System.nanoTime() - deadline > 0) {
          throw new BackendException(Kind.FAILED, e.getMessage());
        }
        Cancellation.sleep(SETTLE_POLL);
      }
    }
  }

  /** What the database holds does not (yet) fit the ACLs Incus reported. */
  private static final class Unsettled extends Exception {
    Unsettled(String message) {
      super(message, null, false, false);
    }
  }

  private NetworkInspection read(
      OvnNorthbound nb,
      String network,
      String switchName,
      NetworkAcl baselineAcl,
      NetworkAcl agentAcl)
      throws Unsettled {
    LogicalSwitch ls =
        nb.byName(NbTable.LOGICAL_SWITCH, switchName)
            .orElseThrow(
                () ->
                    new Unsettled(
                        "logical switch " + switchName + " is not in the northbound database"));
    // incus_acl<id> → the switches it is attached to, for the groups attached to this network's
    // switch.
    Map<String, Set<String>> switchesOf = new HashMap<>();
    for (PortGroup group : nb.list(NbTable.PORT_GROUP)) {
      String owner = group.externalIds().get("incus_port_group");
      String attached = group.externalIds().get("incus_switch");
      if (owner != null && attached != null) {
        switchesOf.computeIfAbsent(owner, k -> new HashSet<>()).add(attached);
      }
    }
    List<String> groups =
        switchesOf.entrySet().stream()
            .filter(e -> e.getValue().contains(switchName))
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    if (groups.size() != 2) {
      throw new Unsettled(
          "network "
              + network
              + " has "
              + groups.size()
              + " ACL port groups in the northbound database ("
              + String.join(", ", groups)
              + "), expected 2: the baseline and the agent ACL");
    }
    Map<String, List<Acl>> rowsOf = new LinkedHashMap<>();
    for (String name : groups) {
      PortGroup group =
          nb.byName(NbTable.PORT_GROUP, name)
              .orElseThrow(
                  () -> new Unsettled("port group " + name + " is not in the northbound database"));
      List<Acl> rows = new ArrayList<>();
      for (Uuid uuid : group.acls()) {
        rows.add(
            nb.get(NbTable.ACL, uuid)
                .orElseThrow(
                    () ->
                        new Unsettled(
                            "ACL row "
                                + uuid
                                + " of "
                                + name
                                + " is not in the northbound database")));
      }
      rowsOf.put(name, rows);
    }
    String first = groups.get(0);
    String second = groups.get(1);
    Optional<Labelling> straight =
        Labelling.of(first, rowsOf.get(first), baselineAcl, second, rowsOf.get(second), agentAcl);
    Optional<Labelling> crossed =
        Labelling.of(second, rowsOf.get(second), baselineAcl, first, rowsOf.get(first), agentAcl);
    Labelling labelling;
    if (straight.isPresent() && crossed.isPresent()) {
      // Same rule shapes in both ACLs: the baseline is on all of the sandbox's networks, an agent
      // ACL on one.
      int baselineNetworks = networksUsing(baselineAcl);
      int agentNetworks = networksUsing(agentAcl);
      boolean straightFits =
          switchesOf.get(first).size() == baselineNetworks
              && switchesOf.get(second).size() == agentNetworks;
      boolean crossedFits =
          switchesOf.get(second).size() == baselineNetworks
              && switchesOf.get(first).size() == agentNetworks;
      if (straightFits == crossedFits) {
        throw new BackendException(
            Kind.FAILED,
            "cannot tell the baseline from the agent ACL of network "
                + network
                + ": port groups "
                + first
                + " and "
                + second
                + " hold rules of the same shapes and are used by "
                + "the same number of networks");
      }
      labelling = straightFits ? straight.get() : crossed.get();
    } else {
      labelling =
          straight
              .or(() -> crossed)
              .orElseThrow(
                  () ->
                      new Unsettled(
                          "the rows of port groups "
                              + first
                              + " and "
                              + second
                              + " of network "
                              + network
                              + " do not match the rules of its baseline and agent ACLs"));
    }
    List<NetworkInspection.Rule> rules = new ArrayList<>();
    for (String name : groups) {
      String label = name.equals(labelling.baselineGroup()) ? BASELINE : AGENT;
      for (Acl row : rowsOf.get(name)) {
        rules.add(
            new NetworkInspection.Rule(
                label,
                labelling.ids().getOrDefault(row.uuid(), ""),
                row.priority(),
                row.direction(),
                row.action(),
                row.match()));
      }
    }
    rules.sort(
        Comparator.comparingLong(NetworkInspection.Rule::priority)
            .reversed()
            .thenComparing(NetworkInspection.Rule::acl)
            .thenComparing(NetworkInspection.Rule::match));
    List<NetworkInspection.Port> ports = new ArrayList<>();
    for (Uuid uuid : ls.ports()) {
      nb.get(NbTable.LOGICAL_SWITCH_PORT, uuid).ifPresent(port -> ports.add(portOf(port)));
    }
    ports.sort(Comparator.comparing(NetworkInspection.Port::name));
    return new NetworkInspection(network, switchName, rules, ports);
  }

  private static int networksUsing(NetworkAcl acl) {
    return (int) acl.usedBy().stream().filter(url -> url.startsWith("/1.0/networks/")).count();
  }

  /** Which port group is the baseline's, and the rule id of every row that comes from a rule. */
  record Labelling(String baselineGroup, Map<Uuid, String> ids) {
    static Optional<Labelling> of(
        String baselineGroup,
        List<Acl> baselineRows,
        NetworkAcl baseline,
        String agentGroup,
        List<Acl> agentRows,
        NetworkAcl agent) {
      Optional<Map<Uuid, String>> baselineIds = pair(baselineGroup, baselineRows, baseline);
      Optional<Map<Uuid, String>> agentIds = pair(agentGroup, agentRows, agent);
      if (baselineIds.isEmpty() || agentIds.isEmpty()) {
        return Optional.empty();
      }
      Map<Uuid, String> ids = new HashMap<>(baselineIds.get());
      ids.putAll(agentIds.get());
      return Optional.of(new Labelling(baselineGroup, ids));
    }
  }

  /**
   * Pairs the rule rows of port group {@code group} one to one with the enabled rules of {@code
   * acl} (a bipartite matching), or empty when they do not pair up. The port group's default row,
   * {@code (inport == @g || outport == @g)}, comes from no rule and is left out.
   */
  static Optional<Map<Uuid, String>> pair(String group, List<Acl> rows, NetworkAcl acl) {
    String defaultMatch = "(inport == @" + group + " || outport == @" + group + ")";
    List<Acl> ruleRows = rows.stream().filter(r -> !r.match().equals(defaultMatch)).toList();
    List<NetworkAcl.Rule> rules = new ArrayList<>();
    List<Boolean> egress = new ArrayList<>();
    for (NetworkAcl.Rule rule : acl.egress()) {
      if (!"disabled".equals(rule.state())) {
        rules.add(rule);
        egress.add(true);
      }
    }
    for (NetworkAcl.Rule rule : acl.ingress()) {
      if (!"disabled".equals(rule.state())) {
        rules.add(rule);
        egress.add(false);
      }
    }
    if (rules.size() != ruleRows.size()) {
      return Optional.empty();
    }
    int[] ruleOfRow = new int[ruleRows.size()];
    Arrays.fill(ruleOfRow, -1);
    int[] rowOfRule = new int[rules.size()];
    Arrays.fill(rowOfRule, -1);
    for (int r = 0; r < rules.size(); r++) {
      if (!augment(
          r, new boolean[ruleRows.size()], rules, egress, ruleRows, group, ruleOfRow, rowOfRule)) {
        return Optional.empty();
      }
    }
    Map<Uuid, String> ids = new HashMap<>();
    for (int row = 0; row < ruleRows.size(); row++) {
      ids.put(ruleRows.get(row).uuid(), idOf(rules.get(ruleOfRow[row])));
    }
    return Optional.of(ids);
  }

  /** Kuhn's augmenting path: finds rule {@code r} a row, moving earlier pairings when needed. */
  private static boolean augment(
      int r,
      boolean[] seen,
      List<NetworkAcl.Rule> rules,
      List<Boolean> egress,
      List<Acl> rows,
      String group,
      int[] ruleOfRow,
      int[] rowOfRule) {
    for (int row = 0; row < rows.size(); row++) {
      if (seen[row] || !matches(rows.get(row), rules.get(r), egress.get(r), group)) {
        continue;
      }
      seen[row] = true;
      if (ruleOfRow[row] < 0
          || augment(ruleOfRow[row], seen, rules, egress, rows, group, ruleOfRow, rowOfRule)) {
        ruleOfRow[row] = r;
        rowOfRule[r] = row;
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code row} can be {@code rule}'s. Incus matches egress rules (traffic leaving the
   * instance) on {@code inport == @group}, ingress rules on {@code outport == @group}; allow
   * becomes {@code allow-related}.
   */
  static boolean matches(Acl row, NetworkAcl.Rule rule, boolean egress, String group) {
    String match = row.match();
    if (!match.contains((egress ? "inport == @" : "outport == @") + group + ")")
        || !row.action().startsWith(rule.action())) {
      return false;
    }
    if (present(rule.destination()) && !match.contains(rule.destination())) {
      return false;
    }
    if (present(rule.source()) && !match.contains(rule.source())) {
      return false;
    }
    if (present(rule.destinationPort()) && !match.contains(".dst == " + rule.destinationPort())) {
      return false;
    }
    return !present(rule.protocol()) || match.contains(rule.protocol());
  }

  private static String idOf(NetworkAcl.Rule rule) {
    return rule.description() == null || !rule.description().startsWith(OvnAcls.ID_PREFIX)
        ? ""
        : rule.description().substring(OvnAcls.ID_PREFIX.length());
  }

  private static NetworkInspection.Port portOf(LogicalSwitchPort port) {
    List<String> addresses = new ArrayList<>(port.addresses());
    port.dynamicAddresses().ifPresent(addresses::add);
    addresses.sort(Comparator.naturalOrder());
    return new NetworkInspection.Port(port.name(), port.type(), addresses);
  }

  private static boolean present(String value) {
    return value != null && !value.isEmpty();
  }
}
