package dev.agentcompute.capabilities.adapter.net;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.Empty;
import dev.agentcompute.capabilities.adapter.Views.NetworkView;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.service.ImpairmentService;
import dev.agentcompute.capabilities.service.NetworkService;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * net.create/list/get/delete/attach/detach for the bridge fabric, and net.impair
 * (docs/reference/capabilities.md#networks).
 */
public final class NetCapabilities {
  private NetCapabilities() {}

  public record CreateInput(
      String sandbox,
      String name,
      Optional<String> kind,
      Optional<String> cidr,
      Optional<Boolean> dhcp,
      Optional<Boolean> nat,
      Optional<Boolean> dns) {}

  public record SandboxInput(String sandbox) {}

  public record ListOutput(List<NetworkView> items) {}

  public record RefInput(String sandbox, String name) {}

  public record AttachInput(
      String sandbox,
      String instance,
      String network,
      Optional<String> nic,
      Optional<String> ip,
      Optional<String> mac) {}

  public record AttachOutput(String nic, String mac) {}

  public record DetachInput(String sandbox, String instance, String nic) {}

  public record ImpairInput(
      String sandbox,
      String instance,
      String nic,
      OptionalLong latency_ms,
      OptionalLong jitter_ms,
      OptionalDouble loss_percent,
      OptionalLong rate_mbit,
      Optional<Boolean> clear) {}

  public static List<CapabilityDefinition<?, ?>> definitions(
      NetworkService networks, ImpairmentService impairments) {
    return List.of(
        new CapabilityDefinition<>(
            "net.create",
            "Create a sandbox network. Instances get addresses only with dhcp=True (default False on"
                + " bridge). nat=false networks are unreachable from outside the sandbox; attach a"
                + " router instance or use net.peer. No uplink gateway is accepted.",
            List.of("network", "bridge", "subnet", "lan"),
            CreateInput.class,
            NetworkView.class,
            (subject, in) -> {
              // Ours: no kind means the sandbox's own fabric (the original defaulted to ovn, which
              // fails in every bridge sandbox).
              Optional<String> kindText = in.kind().filter(k -> !k.isEmpty());
              NetworkKind kind =
                  kindText.isEmpty()
                      ? networks.kindOf(in.sandbox())
                      : NetworkKind.parse(kindText.get())
                          .orElseThrow(
                              () ->
                                  Errors.of(
                                      "unsupported network kind \"%s\": use bridge or ovn, or"
                                          + " leave kind out for the sandbox's own",
                                      kindText.get()));
              boolean services = kind == NetworkKind.OVN;
              return NetworkView.of(
                  networks.create(
                      in.sandbox(),
                      new NetworkPlan(
                          in.name(),
                          kind,
                          in.cidr().orElse(""),
                          in.dhcp().orElse(services),
                          in.nat().orElse(services),
                          in.dns().orElse(services))));
            }),
        new CapabilityDefinition<>(
            "net.list",
            "List sandbox networks.",
            List.of("networks"),
            SandboxInput.class,
            ListOutput.class,
            (subject, in) ->
                new ListOutput(networks.list(in.sandbox()).stream().map(NetworkView::of).toList())),
        new CapabilityDefinition<>(
            "net.get",
            "Get one sandbox network.",
            List.of("network details"),
            RefInput.class,
            NetworkView.class,
            (subject, in) -> NetworkView.of(networks.get(in.sandbox(), in.name()))),
        new CapabilityDefinition<>(
            "net.delete",
            "Delete a sandbox network.",
            List.of("remove network"),
            RefInput.class,
            Empty.class,
            (subject, in) -> {
              networks.delete(in.sandbox(), in.name());
              return new Empty();
            }),
        new CapabilityDefinition<>(
            "net.attach",
            "Attach a NIC to an instance.",
            List.of("nic", "interface", "plug"),
            AttachInput.class,
            AttachOutput.class,
            (subject, in) -> {
              SandboxInstance.Nic nic =
                  networks.attach(
                      in.sandbox(),
                      in.instance(),
                      in.network(),
                      in.nic().orElse(""),
                      in.ip().orElse(""),
                      in.mac().orElse(""));
              return new AttachOutput(nic.name(), nic.mac());
            }),
        new CapabilityDefinition<>(
            "net.detach",
            "Detach a NIC from an instance.",
            List.of("nic", "unplug"),
            DetachInput.class,
            Empty.class,
            (subject, in) -> {
              networks.detach(in.sandbox(), in.instance(), in.nic());
              return new Empty();
            }),
        new CapabilityDefinition<>(
            "net.impair",
            "Apply Linux tc netem impairment on a NIC.",
            List.of("latency", "loss", "jitter", "bandwidth", "tc", "netem"),
            ImpairInput.class,
            Empty.class,
            (subject, in) -> {
              impairments.impair(
                  in.sandbox(),
                  in.instance(),
                  in.nic(),
                  new ImpairmentService.Request(
                      in.latency_ms().orElse(0),
                      in.jitter_ms().orElse(0),
                      in.loss_percent().orElse(0),
                      in.rate_mbit().orElse(0),
                      in.clear().orElse(false)));
              return new Empty();
            }));
  }
}
