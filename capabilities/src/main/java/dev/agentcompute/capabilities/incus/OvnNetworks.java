package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.AddressRange;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkPeer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * OVN networks of a sandbox (docs/reference/capabilities.md#incus-state): created in the sandbox
 * project under their logical names, tagged with the sandbox, always with an explicit router
 * address (the agent's, or the next free block of the subnet pool), the baseline and agent ACLs
 * attached, and {@code network=none} when NAT is off (isolated: no uplink).
 */
final class OvnNetworks {
  private final IncusClient client;
  private final String uplink;
  private final OvnAcls acls;
  private final SubnetClaims subnets;
  private final NetworkCreations creations;

  OvnNetworks(
      IncusClient client,
      String uplink,
      OvnAcls acls,
      SubnetClaims subnets,
      NetworkCreations creations) {
    this.client = client;
    this.uplink = uplink;
    this.acls = acls;
    this.subnets = subnets;
    this.creations = creations;
  }

  private IncusClient project(String sandbox) {
    return client.inProject(Meta.project(sandbox));
  }

  /** The config of a new OVN network; {@code address} is the router CIDR. */
  Map<String, String> config(String sandbox, NetworkPlan spec, String address) {
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("network", spec.nat() ? uplink : "none");
    cfg.put("ipv4.address", address);
    cfg.put("ipv4.nat", Boolean.toString(spec.nat()));
    cfg.put("ipv4.dhcp", Boolean.toString(spec.dhcp()));
    cfg.put("ipv6.address", "none");
    // Incus 6.0 OVN networks have no dns.mode (their DHCP hands out the uplink's nameservers): the
    // agent's choice is kept as a tag so an identical re-create still compares equal.
    cfg.put(Meta.PREFIX + "dns", Boolean.toString(spec.dns()));
    cfg.put("security.acls", OvnAcls.BASELINE + "," + OvnAcls.agentAclName(spec.name()));
    cfg.put("security.acls.default.ingress.action", "allow");
    cfg.put("security.acls.default.egress.action", "allow");
    cfg.putAll(Meta.tags(sandbox, spec.name()));
    return cfg;
  }

  /** Creates the network, or returns the existing one when its config is the same (idempotent). */
  SandboxNetwork create(String sandbox, NetworkPlan spec, String routerAddress) {
    IncusClient project = project(sandbox);
    Optional<dev.agentcompute.incus.Network> existing = find(project, spec.name());
    if (existing.isPresent()) {
      return adopt(sandbox, spec, routerAddress, existing.get());
    }
    if (spec.nat() && uplink.isBlank()) {
      throw Errors.noOvnUplink();
    }
    if (!routerAddress.isEmpty()) {
      requireOffUplink(spec.cidr(), routerAddress);
    }
    acls.ensure(project, sandbox, spec.name());
    try {
      java.util.function.Function<String, SandboxNetwork> build =
          address -> {
            // on a cluster, one server at a time (NetworkCreations)
            creations.onEveryMember(
                () -> {
                  project
                      .networks()
                      .create(
                          new dev.agentcompute.incus.NetworkSpec(
                              spec.name(),
                              "ovn",
                              "agentcompute " + sandbox + "/" + spec.name(),
                              config(sandbox, spec, address)));
                  return null;
                });
            return SandboxNetwork.of(spec.name(), "ovn", address);
          };
      // An agent's own OVN subnet lives only inside the sandbox's fabric: it may repeat another's.
      if (!routerAddress.isEmpty()) {
        return build.apply(routerAddress);
      }
      return subnets.claim(
          null,
          new SubnetClaims.Claimant(Meta.project(sandbox), spec.name()),
          build,
          () -> IncusFailures.ignoreNotFound(() -> project.networks().delete(spec.name())));
    } catch (RuntimeException e) {
      // No orphan agent ACL; if the network was created after all, the ACL is in use and stays.
      try {
        if (find(project, spec.name()).isEmpty()) {
          OvnAcls.deleteAgentAcl(project, sandbox, spec.name());
        }
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * An agent's OVN subnet must not shadow the uplink network's own subnet, its routes or its OVN
   * range: traffic meant for the uplink side would stay inside the sandbox.
   */
  private void requireOffUplink(String text, String routerAddress) {
    Ipv4Cidr router = Ipv4Cidr.parse(routerAddress).orElseThrow();
    Map<String, String> cfg;
    try {
      cfg = client.networks().get(uplink).config();
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return; // Incus refuses the network itself: its uplink is missing
      }
      throw e;
    }
    for (String key : List.of("ipv4.gateway", "ipv4.routes")) {
      for (String value : cfg.getOrDefault(key, "").split(",")) {
        Optional<Ipv4Cidr> subnet = Ipv4Cidr.parse(value.trim());
        if (subnet.isPresent() && subnet.get().overlaps(router)) {
          throw Errors.of(
              "cidr \"%s\" overlaps the OVN uplink network %s", text, subnet.get().network());
        }
      }
    }
    Optional<AddressRange> mine = AddressRange.parse(router.network().toString());
    for (String range : cfg.getOrDefault("ipv4.ovn.ranges", "").split(",")) {
      Optional<AddressRange> uplinkRange = AddressRange.parse(range.trim());
      if (uplinkRange.isPresent() && mine.flatMap(uplinkRange.get()::intersection).isPresent()) {
        throw Errors.of("cidr \"%s\" overlaps the OVN uplink range %s", text, range.trim());
      }
    }
  }

  private SandboxNetwork adopt(
      String sandbox,
      NetworkPlan spec,
      String routerAddress,
      dev.agentcompute.incus.Network network) {
    Map<String, String> cfg = network.config();
    if (!sandbox.equals(cfg.get(Meta.SANDBOX)) || !"1".equals(cfg.get(Meta.VERSION))) {
      throw Errors.of("network \"%s\" is not owned by sandbox \"%s\"", spec.name(), sandbox);
    }
    if (!"Created".equals(network.status())) {
      throw new BackendException(
          Kind.UNAVAILABLE, "network " + spec.name() + " is " + network.status());
    }
    if (!"ovn".equals(network.type())) {
      throw Errors.of("network \"%s\" already exists with a different kind", spec.name());
    }
    Map<String, String> wanted =
        config(
            sandbox,
            spec,
            routerAddress.isEmpty() ? cfg.getOrDefault("ipv4.address", "") : routerAddress);
    for (Map.Entry<String, String> entry : wanted.entrySet()) {
      if (!Objects.equals(entry.getValue(), cfg.get(entry.getKey()))) {
        // The dns choice is a tag here (Incus 6.0 OVN networks have no dns.mode); the agent reads
        // the spec's key.
        String key = entry.getKey().equals(Meta.PREFIX + "dns") ? "dns.mode" : entry.getKey();
        throw Errors.of(
            "network \"%s\" already exists with a different %s setting; delete it before recreating"
                + " it",
            spec.name(), key);
      }
    }
    return SandboxNetwork.of(spec.name(), "ovn", cfg.getOrDefault("ipv4.address", ""));
  }

  private static Optional<dev.agentcompute.incus.Network> find(IncusClient project, String name) {
    try {
      return Optional.of(project.networks().get(name));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The sandbox's OVN networks (type ovn, tagged with the sandbox). */
  List<dev.agentcompute.incus.Network> owned(String sandbox) {
    List<dev.agentcompute.incus.Network> result = new ArrayList<>();
    for (dev.agentcompute.incus.Network network : project(sandbox).networks().list()) {
      if ("ovn".equals(network.type())
          && sandbox.equals(network.config().get(Meta.SANDBOX))
          && "1".equals(network.config().get(Meta.VERSION))) {
        result.add(network);
      }
    }
    return result;
  }

  List<SandboxNetwork> list(String sandbox) {
    return owned(sandbox).stream()
        .map(n -> SandboxNetwork.of(n.name(), "ovn", n.config().getOrDefault("ipv4.address", "")))
        .toList();
  }

  Optional<dev.agentcompute.incus.Network> get(String sandbox, String name) {
    return owned(sandbox).stream().filter(n -> n.name().equals(name)).findFirst();
  }

  /** Deletes forwards, peers, the network, then its agent ACL. A missing network is fine. */
  void delete(String sandbox, String name) {
    IncusClient project = project(sandbox);
    try {
      for (var forward : project.networks().forwards(name)) {
        IncusFailures.ignoreNotFound(
            () -> project.networks().deleteForward(name, forward.listenAddress()));
      }
      for (NetworkPeer peer : project.networks().peers(name)) {
        IncusFailures.ignoreNotFound(() -> project.networks().deletePeer(name, peer.name()));
      }
      IncusFailures.ignoreNotFound(() -> project.networks().delete(name));
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    OvnAcls.deleteAgentAcl(project, sandbox, name);
  }

  /**
   * A local peer {@code a → b} and {@code b → a}; an existing peer must point at the same network.
   */
  void peer(String sandbox, String a, String b) {
    IncusClient project = project(sandbox);
    peerOneWay(project, sandbox, a, b);
    peerOneWay(project, sandbox, b, a);
  }

  private static void peerOneWay(IncusClient project, String sandbox, String from, String to) {
    try {
      NetworkPeer existing = project.networks().peer(from, to);
      String targetProject = existing.targetProject() == null ? "" : existing.targetProject();
      boolean sameProject = targetProject.isEmpty() || Meta.project(sandbox).equals(targetProject);
      if (!to.equals(existing.targetNetwork()) || !sameProject) {
        throw new BackendException(
            Kind.FAILED, "peer \"" + to + "\" already exists on network \"" + from + "\"");
      }
      return;
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    Map<String, String> config = new LinkedHashMap<>();
    config.put(Meta.SANDBOX, sandbox);
    config.put(Meta.VERSION, "1");
    project.networks().createPeer(from, NetworkPeer.local(to, Meta.project(sandbox), to, config));
  }
}
