package dev.agentcompute.capabilities.adapter.net;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.Empty;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.service.NetworkService;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * net.peer, net.acl.add/remove, net.forward (docs/reference/capabilities.md#networks) and
 * net.inspect (northbound view) for OVN networks.
 */
public final class OvnNetCapabilities {
  private OvnNetCapabilities() {}

  public record PeerInput(String sandbox, String network, String peer) {}

  public record AclAddInput(
      String sandbox,
      String network,
      String direction,
      String action,
      Optional<String> protocol,
      Optional<String> src,
      Optional<String> dst,
      Optional<String> port) {}

  public record AclAddOutput(String rule) {}

  public record AclRemoveInput(String sandbox, String network, String rule) {}

  public record ForwardInput(
      String sandbox,
      String network,
      String instance,
      long port,
      OptionalLong listen_port,
      Optional<String> protocol) {}

  public record ForwardOutput(String address, long port) {}

  public record InspectInput(String sandbox, String network) {}

  public record RuleView(
      String acl, String id, long priority, String direction, String action, String match) {}

  public record PortView(String name, String type, List<String> addresses) {}

  public record InspectOutput(
      String network, String logical_switch, List<RuleView> rules, List<PortView> ports) {
    static InspectOutput of(NetworkInspection in) {
      return new InspectOutput(
          in.network(),
          in.logicalSwitch(),
          in.rules().stream()
              .map(
                  r ->
                      new RuleView(
                          r.acl(), r.id(), r.priority(), r.direction(), r.action(), r.match()))
              .toList(),
          in.ports().stream().map(p -> new PortView(p.name(), p.type(), p.addresses())).toList());
    }
  }

  public static List<CapabilityDefinition<?, ?>> definitions(NetworkService networks) {
    return List.of(
        new CapabilityDefinition<>(
            "net.peer",
            "Peer two OVN networks in a sandbox.",
            List.of("peering", "route"),
            PeerInput.class,
            Empty.class,
            (subject, in) -> {
              networks.peer(in.sandbox(), in.network(), in.peer());
              return new Empty();
            }),
        new CapabilityDefinition<>(
            "net.acl.add",
            "Add an ACL rule. Allow rules require an explicit destination IP/CIDR outside management and OOB.",
            List.of("firewall", "acl", "allow", "drop"),
            AclAddInput.class,
            AclAddOutput.class,
            (subject, in) ->
                new AclAddOutput(
                    networks.addAclRule(
                        in.sandbox(),
                        in.network(),
                        AclRuleSpec.parse(
                            in.direction(),
                            in.action(),
                            in.protocol().orElse(""),
                            in.src().orElse(""),
                            in.dst().orElse(""),
                            in.port().orElse(""))))),
        new CapabilityDefinition<>(
            "net.acl.remove",
            "Remove a network ACL rule.",
            List.of("firewall", "acl"),
            AclRemoveInput.class,
            Empty.class,
            (subject, in) -> {
              networks.removeAclRule(in.sandbox(), in.network(), in.rule());
              return new Empty();
            }),
        new CapabilityDefinition<>(
            "net.forward",
            "Forward a port from the OVN uplink range on a NAT-enabled network. Isolated nat=false networks cannot "
                + "have forwards.",
            List.of("port forward", "expose", "dnat"),
            ForwardInput.class,
            ForwardOutput.class,
            (subject, in) -> {
              long port = in.port();
              if (port < ComputeLimits.PORT_MIN || port > ComputeLimits.PORT_MAX) {
                throw Errors.of("port must be between 1 and 65535");
              }
              long listen = in.listen_port().orElse(port);
              if (listen < ComputeLimits.PORT_MIN || listen > ComputeLimits.PORT_MAX) {
                throw Errors.of("listen_port must be between 1 and 65535");
              }
              PortForward forward =
                  networks.forward(
                      in.sandbox(),
                      in.network(),
                      in.instance(),
                      (int) port,
                      (int) listen,
                      ForwardProtocol.parse(in.protocol().orElse("")));
              return new ForwardOutput(forward.address(), forward.port());
            }),
        new CapabilityDefinition<>(
            "net.inspect",
            "Show the OVN rules in effect for a sandbox network (baseline and agent ACL rows, highest priority first) "
                + "and its logical ports with their addresses, read from the northbound database.",
            List.of("acl", "ovn", "ports", "debug"),
            InspectInput.class,
            InspectOutput.class,
            (subject, in) -> InspectOutput.of(networks.inspect(in.sandbox(), in.network()))));
  }
}
