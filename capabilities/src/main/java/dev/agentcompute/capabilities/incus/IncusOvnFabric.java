package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.OvnFabric;
import dev.agentcompute.incus.IncusClient;

/**
 * Peers, agent ACL rules, port forwards and northbound inspection of a sandbox's OVN networks, each
 * after checking the network is one of the sandbox's OVN networks.
 */
final class IncusOvnFabric implements OvnFabric {
  private final OvnNetworks ovn;
  private final OvnAcls acls;
  private final OvnForwards forwards;
  private final NorthboundInspector inspector;
  private final InstanceReader reader;

  IncusOvnFabric(
      OvnNetworks ovn,
      OvnAcls acls,
      OvnForwards forwards,
      NorthboundInspector inspector,
      InstanceReader reader) {
    this.ovn = ovn;
    this.acls = acls;
    this.forwards = forwards;
    this.inspector = inspector;
    this.reader = reader;
  }

  private dev.agentcompute.incus.Network require(Sandbox sandbox, String name) {
    return ovn.get(sandbox.name(), name)
        .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
  }

  @Override
  public void peer(Sandbox sandbox, String network, String peer) {
    require(sandbox, network);
    require(sandbox, peer);
    ovn.peer(sandbox.name(), network, peer);
  }

  @Override
  public String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule) {
    require(sandbox, network);
    return acls.add(reader.in(sandbox), network, rule);
  }

  @Override
  public void removeAclRule(Sandbox sandbox, String network, String rule) {
    require(sandbox, network);
    acls.remove(reader.in(sandbox), sandbox.name(), network, rule);
  }

  @Override
  public PortForward forward(
      Sandbox sandbox,
      String network,
      String instance,
      int port,
      int listenPort,
      ForwardProtocol protocol) {
    dev.agentcompute.incus.Network net = require(sandbox, network);
    if ("none".equals(net.config().getOrDefault("network", "none"))
        || !"true".equals(net.config().get("ipv4.nat"))) {
      throw Errors.of(
          "net.forward requires a NAT-enabled network; nat=false networks have no uplink");
    }
    SandboxInstance target = reader.require(sandbox, instance);
    SandboxInstance.Nic nic =
        target.nics().stream()
            .filter(n -> n.network().equals(network))
            .findFirst()
            .orElseThrow(
                () -> Errors.of("instance \"%s\" has no NIC on network \"%s\"", instance, network));
    String address =
        OvnForwards.targetAddress(reader.in(sandbox), network, instance, nic.addresses())
            .orElseThrow(
                () ->
                    new BackendException(
                        Kind.FAILED,
                        "instance " + instance + " has no address on network " + network));
    return forwards.forward(
        sandbox.name(), network, address, port, listenPort, protocol.wireName());
  }

  @Override
  public NetworkInspection inspect(Sandbox sandbox, String network) {
    require(sandbox, network);
    IncusClient project = reader.in(sandbox);
    return inspector.inspect(
        project,
        network,
        project.networkAcls().get(OvnAcls.BASELINE),
        project.networkAcls().get(OvnAcls.agentAclName(network)));
  }

  @Override
  public java.util.Optional<String> forwardTo(Sandbox sandbox, SandboxInstance instance, int port) {
    java.util.Set<String> addresses = new java.util.HashSet<>();
    instance.nics().forEach(nic -> addresses.addAll(nic.addresses()));
    IncusClient project = reader.in(sandbox);
    for (var network : ovn.list(sandbox.name())) {
      for (dev.agentcompute.incus.NetworkForward forward :
          project.networks().forwards(network.name())) {
        for (dev.agentcompute.incus.NetworkForward.Port p : forward.ports()) {
          if ("tcp".equals(p.protocol())
              && Integer.toString(port).equals(p.targetPort())
              && addresses.contains(p.targetAddress())) {
            return java.util.Optional.of(forward.listenAddress() + ":" + p.listenPort());
          }
        }
      }
    }
    return java.util.Optional.empty();
  }

  @Override
  public int forwardedPorts(Sandbox sandbox) {
    IncusClient project = reader.in(sandbox);
    int ports = 0;
    for (var network : ovn.list(sandbox.name())) {
      for (dev.agentcompute.incus.NetworkForward forward :
          project.networks().forwards(network.name())) {
        ports += forward.ports().size();
      }
    }
    return ports;
  }
}
