package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.service.Compute;
import java.util.List;
import java.util.Optional;

/**
 * The compute services as the ITs call them: with the agent's words for closed sets (parsed as the
 * capability adapters parse them) and direct lookups for assertions on what Incus holds.
 */
final class ComputeCalls {
  private final Compute compute;

  ComputeCalls(ComputeRuntime runtime) {
    this.compute = runtime.compute();
  }

  ComputeConfig config() {
    return compute.config();
  }

  Optional<Sandbox> findSandbox(String name) {
    return compute.access().find(name);
  }

  Sandbox requireSandbox(String name) {
    return compute.access().require(name);
  }

  Optional<SandboxInstance> findInstance(String sandbox, String name) {
    Sandbox found = requireSandbox(sandbox);
    return compute.router().instances(found).find(found, name);
  }

  void createSandbox(String subject, String name, String platform, long ttl, boolean pinned) {
    compute.sandboxes().create(subject, name, platform, ttl, pinned);
  }

  void deleteSandbox(String name) {
    compute.sandboxes().delete(name);
  }

  SandboxNetwork createNetwork(String sandbox, NetworkPlan plan) {
    return compute.networks().create(sandbox, plan);
  }

  List<SandboxNetwork> listNetworks(String sandbox) {
    return compute.networks().list(sandbox);
  }

  SandboxNetwork getNetwork(String sandbox, String name) {
    return compute.networks().get(sandbox, name);
  }

  void deleteNetwork(String sandbox, String name) {
    compute.networks().delete(sandbox, name);
  }

  SandboxInstance.Nic attach(
      String sandbox, String instance, String network, String nic, String ip, String mac) {
    return compute.networks().attach(sandbox, instance, network, nic, ip, mac);
  }

  void detach(String sandbox, String instance, String nic) {
    compute.networks().detach(sandbox, instance, nic);
  }

  void peer(String sandbox, String network, String peer) {
    compute.networks().peer(sandbox, network, peer);
  }

  String addAclRule(
      String sandbox,
      String network,
      String direction,
      String action,
      String protocol,
      String src,
      String dst,
      String port) {
    return compute
        .networks()
        .addAclRule(
            sandbox, network, AclRuleSpec.parse(direction, action, protocol, src, dst, port));
  }

  void removeAclRule(String sandbox, String network, String rule) {
    compute.networks().removeAclRule(sandbox, network, rule);
  }

  PortForward forward(
      String sandbox, String network, String instance, int port, Long listen, String protocol) {
    return compute
        .networks()
        .forward(
            sandbox,
            network,
            instance,
            port,
            listen == null ? port : listen.intValue(),
            ForwardProtocol.parse(protocol));
  }

  NetworkInspection inspect(String sandbox, String network) {
    return compute.networks().inspect(sandbox, network);
  }

  ExecResult exec(String sandbox, String instance, ExecRequest request) {
    return compute.instances().exec(sandbox, instance, request);
  }
}
