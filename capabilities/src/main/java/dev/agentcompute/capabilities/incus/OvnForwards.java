package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.AddressRange;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkAllocation;
import dev.agentcompute.incus.NetworkForward;
import dev.agentcompute.incus.NetworkLease;
import dev.agentcompute.ovn.LoadBalancer;
import dev.agentcompute.ovn.Nat;
import dev.agentcompute.ovn.NbTable;
import dev.agentcompute.ovn.OvnNorthbound;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Port forwards of OVN networks (docs/reference/capabilities.md#netforward). A network's forwards
 * share one listen address: the first forward's, or the first free address of the configured range.
 * Free means: in no Incus network allocation, no OVN router's uplink address and, when the
 * northbound database is connected, no NAT rule's external IP and no load-balancer VIP. A creation
 * whose outcome is uncertain is never followed by a second forward.
 */
final class OvnForwards {
  private static final int ATTEMPTS = 8;

  private final IncusClient client;
  private final String ranges;
  private final Optional<OvnNorthbound> northbound;
  private final ReentrantLock allocation = new ReentrantLock();

  OvnForwards(IncusClient client, String ranges, Optional<OvnNorthbound> northbound) {
    this.client = client;
    this.ranges = ranges;
    this.northbound = northbound;
  }

  PortForward forward(
      String sandbox,
      String network,
      String targetAddress,
      int port,
      int listenPort,
      String protocol) {
    IncusClient project = client.inProject(Meta.project(sandbox));
    NetworkForward.Port rule =
        new NetworkForward.Port(
            "", protocol, Integer.toString(listenPort), Integer.toString(port), targetAddress);
    List<NetworkForward> existing = project.networks().forwards(network);
    if (!existing.isEmpty()) {
      NetworkForward first = existing.getFirst();
      for (NetworkForward.Port p : first.ports()) {
        if (protocol.equals(p.protocol()) && Integer.toString(listenPort).equals(p.listenPort())) {
          throw new BackendException(
              Kind.FAILED,
              "listen port "
                  + listenPort
                  + "/"
                  + protocol
                  + " is already forwarded on "
                  + first.listenAddress());
        }
      }
      List<NetworkForward.Port> ports = new ArrayList<>(first.ports());
      ports.add(rule);
      project.networks().updateForward(network, first.withPorts(ports));
      return new PortForward(first.listenAddress(), listenPort);
    }
    if (ranges.isBlank()) {
      throw Errors.noOvnRanges();
    }
    AddressRange range =
        AddressRange.parse(ranges)
            .orElseThrow(
                () -> new BackendException(Kind.FAILED, "no OVN range is configured for forwards"));
    allocation.lock();
    try {
      Set<String> skipped = new HashSet<>();
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        Set<String> used = usedAddresses(range);
        used.addAll(skipped);
        // A plain failure (docs/reference/capabilities.md#errors): the agent sees a bare
        // "capability failed".
        String address =
            range
                .firstFree(used)
                .orElseThrow(
                    () ->
                        new BackendException(
                            Kind.FAILED, "no free address remains in the OVN range"));
        Map<String, String> config = new LinkedHashMap<>(Meta.tags(sandbox, network));
        try {
          project
              .networks()
              .createForward(
                  network,
                  new NetworkForward(address, "agentcompute forward", config, List.of(rule), null));
          return new PortForward(address, listenPort);
        } catch (IncusException failure) {
          if (!takenByOthers(project, network, range, address, failure)) {
            throw failure; // possibly created, or failed for another reason: never a second forward
          }
          skipped.add(address); // someone else took it meanwhile: try the next one
        }
      }
      throw new BackendException(
          Kind.FAILED, "no forward address could be taken in " + ATTEMPTS + " attempts");
    } finally {
      allocation.unlock();
    }
  }

  /**
   * After a failed create: true only when the network still has no forward and {@code address} now
   * shows as used, i.e. someone else took it meanwhile. A forward on the network may be this
   * create's own (the request reached Incus, the answer was lost); when either check cannot be
   * made, the outcome is unknown. In both cases the caller returns the failure.
   */
  private boolean takenByOthers(
      IncusClient project,
      String network,
      AddressRange range,
      String address,
      IncusException failure) {
    try {
      return project.networks().forwards(network).isEmpty()
          && usedAddresses(range).contains(address);
    } catch (RuntimeException check) {
      failure.addSuppressed(check);
      return false;
    }
  }

  /** The addresses of {@code range} in use, from Incus and from the northbound database. */
  Set<String> usedAddresses(AddressRange range) {
    Set<String> used = new HashSet<>();
    for (NetworkAllocation allocation : client.networks().allocations(true)) {
      addAddress(used, allocation.address(), range);
    }
    for (dev.agentcompute.incus.Network network : client.networks().listAllProjects()) {
      if ("ovn".equals(network.type())) {
        addAddress(used, network.config().getOrDefault("volatile.network.ipv4.address", ""), range);
      }
    }
    northbound
        .filter(OvnNorthbound::isConnected)
        .ifPresent(nb -> used.addAll(northboundAddresses(nb, range)));
    return used;
  }

  /**
   * External IPs of NAT rules and the addresses of load-balancer VIPs ({@code ip:port} or {@code
   * ip}).
   */
  static Set<String> northboundAddresses(OvnNorthbound nb, AddressRange range) {
    Set<String> used = new HashSet<>();
    for (Nat nat : nb.list(NbTable.NAT)) {
      addAddress(used, nat.externalIp(), range);
    }
    for (LoadBalancer lb : nb.list(NbTable.LOAD_BALANCER)) {
      for (String vip : lb.vips().keySet()) {
        int colon = vip.lastIndexOf(':');
        addAddress(
            used, colon > 0 && vip.indexOf(':') == colon ? vip.substring(0, colon) : vip, range);
      }
    }
    return used;
  }

  /**
   * Adds the addresses of {@code range} an IPv4 address or CIDR covers (a whole subnet counts as
   * used).
   */
  private static void addAddress(Set<String> used, String value, AddressRange range) {
    if (value == null || value.isBlank()) {
      return;
    }
    String text = value.trim();
    Optional<AddressRange> covered =
        Ipv4Cidr.parse(text).isPresent()
            ? AddressRange.parse(text)
            : AddressRange.parse(text + "/32");
    covered.flatMap(range::intersection).ifPresent(overlap -> used.addAll(overlap.addresses()));
  }

  /** The instance's first IPv4 on the network's NIC, else its DHCP lease on the network. */
  static Optional<String> targetAddress(
      IncusClient project, String network, String instance, List<String> nicAddresses) {
    for (String address : nicAddresses) {
      if (Ipv4Cidr.parseAddress(address).isPresent()) {
        return Optional.of(address);
      }
    }
    for (NetworkLease lease : project.networks().leases(network)) {
      if (instance.equals(lease.hostname())
          && lease.address() != null
          && Ipv4Cidr.parseAddress(lease.address()).isPresent()) {
        return Optional.of(lease.address());
      }
    }
    return Optional.empty();
  }
}
