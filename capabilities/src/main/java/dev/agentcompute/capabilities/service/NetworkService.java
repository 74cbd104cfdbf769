package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.BaselineRules;
import dev.agentcompute.capabilities.model.CidrRules;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.OvnAddress;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.util.List;

/**
 * net.* (docs/reference/capabilities.md#networks): networks of either fabric, NICs, and what only
 * OVN networks have (peers, ACLs, forwards, inspection). Mutations run under the gate of a live
 * sandbox. Impairment lives in {@link ImpairmentService}.
 */
public final class NetworkService {
  private final SandboxAccess access;
  private final PlatformRouter router;
  private final InstanceService instances;
  private final ComputeConfig config;
  private final QuotaChecks quotas;
  private final IdentityQuotas identityQuotas;

  public NetworkService(SandboxAccess access, InstanceService instances, ComputeConfig config) {
    this.access = access;
    this.router = access.router();
    this.instances = instances;
    this.config = config;
    this.quotas = new QuotaChecks(config.quotas());
    this.identityQuotas = new IdentityQuotas(access, quotas);
  }

  public SandboxNetwork create(String sandboxName, NetworkPlan plan) {
    Names.require(sandboxName, plan.name());
    if (plan.cidr() != null && !plan.cidr().isEmpty()) {
      requireAllowedCidr(plan);
    }
    return access.live(
        sandboxName,
        sandbox -> {
          router.networks(sandbox); // a platform without networks (mac) answers unsupported first
          if (plan.kind() != sandbox.networkKind()) {
            throw Errors.of(
                "cannot create a \"%s\" network in a \"%s\" sandbox; leave kind out to get the"
                    + " sandbox's \"%s\"",
                plan.kind().wireName(),
                sandbox.networkKind().wireName(),
                sandbox.networkKind().wireName());
          }
          if (plan.kind() == NetworkKind.BRIDGE
              && router.networks(sandbox).list(sandbox).stream()
                  .anyMatch(n -> n.name().equals(plan.name()))) {
            throw Errors.of(
                "network \"%s\" already exists in sandbox \"%s\"", plan.name(), sandboxName);
          }
          List<SandboxNetwork> existing = router.networks(sandbox).list(sandbox);
          // An identical re-create of an existing network (OVN) takes no room.
          if (existing.stream().anyMatch(n -> n.name().equals(plan.name()))) {
            return router.networks(sandbox).create(sandbox, plan);
          }
          quotas.networkRoom(sandboxName, existing.size());
          return identityQuotas.withNetworkRoom(
              sandbox, () -> router.networks(sandbox).create(sandbox, plan));
        });
  }

  /** An explicit cidr must be one an agent may choose (host routes and protected ranges). */
  private void requireAllowedCidr(NetworkPlan plan) {
    if (plan.kind() == NetworkKind.OVN) {
      Ipv4Cidr router =
          OvnAddress.routerAddress(plan.cidr())
              .orElseThrow(() -> Errors.of("invalid cidr \"%s\"", plan.cidr()));
      CidrRules.ovn(plan.cidr(), router, config.protectedRanges());
    } else {
      CidrRules.bridge(plan.cidr(), config.bridgeSubnets(), config.protectedRanges());
    }
  }

  /** The fabric of the sandbox's networks: the kind net.create uses when none is given. */
  public NetworkKind kindOf(String sandboxName) {
    return access.require(sandboxName).networkKind();
  }

  public List<SandboxNetwork> list(String sandboxName) {
    Sandbox sandbox = access.require(sandboxName);
    return router.networks(sandbox).list(sandbox);
  }

  public SandboxNetwork get(String sandboxName, String name) {
    Sandbox sandbox = access.require(sandboxName);
    Names.requireNetworkRef(name);
    return require(sandbox, name);
  }

  public void delete(String sandboxName, String name) {
    Names.require(sandboxName, name);
    access.runLive(sandboxName, sandbox -> router.networks(sandbox).delete(sandbox, name));
  }

  public SandboxInstance.Nic attach(
      String sandboxName, String instance, String network, String nic, String ip, String mac) {
    Names.require(sandboxName, instance);
    Names.requireNetworkRef(network);
    if (nic != null && !nic.isEmpty()) {
      Names.require(nic);
    }
    return access.live(
        sandboxName,
        sandbox -> {
          instances.require(sandbox, instance);
          return router.networks(sandbox).attach(sandbox, instance, network, nic, ip, mac);
        });
  }

  public void detach(String sandboxName, String instance, String nic) {
    Names.require(sandboxName, instance, nic);
    access.runLive(sandboxName, sandbox -> router.networks(sandbox).detach(sandbox, instance, nic));
  }

  // ---- OVN only --------------------------------------------------------------------------------

  public void peer(String sandboxName, String network, String peer) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    Names.requireNetworkRef(peer);
    if (network.equals(peer)) {
      throw Errors.of("peer network must be different");
    }
    access.runLive(
        sandboxName,
        sandbox -> {
          requireOvn(sandbox, "network peering requires OVN networks");
          require(sandbox, network);
          require(sandbox, peer);
          router.ovn(sandbox).peer(sandbox, network, peer);
        });
  }

  /** Adds a parsed rule; an allow rule's destination is checked against the protected ranges. */
  public String addAclRule(String sandboxName, String network, AclRuleSpec rule) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    rule.requireAllowedDestination(config.protectedRanges());
    return access.live(
        sandboxName,
        sandbox -> {
          requireOvn(sandbox, "network ACLs require OVN networks");
          require(sandbox, network);
          return router.ovn(sandbox).addAclRule(sandbox, network, rule);
        });
  }

  public void removeAclRule(String sandboxName, String network, String rule) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    if (rule == null || rule.isEmpty()) {
      throw Errors.of("rule is required");
    }
    if (BaselineRules.isBaseline(rule)) {
      throw Errors.of("rule \"%s\" is a baseline ACL and cannot be removed", rule);
    }
    access.runLive(
        sandboxName,
        sandbox -> {
          requireOvn(sandbox, "network ACLs require OVN networks");
          require(sandbox, network);
          router.ovn(sandbox).removeAclRule(sandbox, network, rule);
        });
  }

  /** Ports are already checked (1 to 65535) by the caller, in the original's order. */
  public PortForward forward(
      String sandboxName,
      String network,
      String instance,
      int port,
      int listenPort,
      ForwardProtocol protocol) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    Names.require(instance);
    return access.live(
        sandboxName,
        sandbox -> {
          requireOvn(sandbox, "port forwards require an OVN network");
          require(sandbox, network);
          return identityQuotas.withForwardRoom(
              sandbox,
              () ->
                  router
                      .ovn(sandbox)
                      .forward(sandbox, network, instance, port, listenPort, protocol));
        });
  }

  /** The rules and ports in effect for an OVN network (read-only: no gate, no liveness check). */
  public NetworkInspection inspect(String sandboxName, String network) {
    Sandbox sandbox = access.require(sandboxName);
    Names.requireNetworkRef(network);
    requireOvn(sandbox, "net.inspect requires OVN networks");
    require(sandbox, network);
    return router.ovn(sandbox).inspect(sandbox, network);
  }

  private static void requireOvn(Sandbox sandbox, String bridgeError) {
    if (sandbox.networkKind() != NetworkKind.OVN) {
      throw Errors.of("%s", bridgeError);
    }
  }

  private SandboxNetwork require(Sandbox sandbox, String name) {
    return router.networks(sandbox).list(sandbox).stream()
        .filter(n -> n.name().equals(name))
        .findFirst()
        .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
  }
}
