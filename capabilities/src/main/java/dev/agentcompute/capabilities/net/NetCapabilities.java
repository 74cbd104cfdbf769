package dev.agentcompute.capabilities.net;

import dev.agentcompute.capabilities.CapabilityDefinition;
import dev.agentcompute.capabilities.Views.Empty;
import dev.agentcompute.capabilities.Views.NetworkView;
import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.compute.Errors;
import dev.agentcompute.capabilities.compute.ExecRequest;
import dev.agentcompute.capabilities.compute.ExecResult;
import dev.agentcompute.capabilities.compute.Instance;
import dev.agentcompute.capabilities.compute.NetworkSpec;
import dev.agentcompute.capabilities.compute.Sandbox;
import dev.agentcompute.capabilities.sandbox.Names;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** net.create/list/get/delete/attach/detach for the bridge fabric, and net.impair (spec §2.7). */
public final class NetCapabilities {
  private NetCapabilities() {}

  public record CreateInput(String sandbox, String name, Optional<String> kind, Optional<String> cidr,
      Optional<Boolean> dhcp, Optional<Boolean> nat, Optional<Boolean> dns) {}

  public record SandboxInput(String sandbox) {}

  public record ListOutput(List<NetworkView> items) {}

  public record RefInput(String sandbox, String name) {}

  public record AttachInput(String sandbox, String instance, String network, Optional<String> nic,
      Optional<String> ip, Optional<String> mac) {}

  public record AttachOutput(String nic, String mac) {}

  public record DetachInput(String sandbox, String instance, String nic) {}

  public record ImpairInput(String sandbox, String instance, String nic, OptionalLong latency_ms,
      OptionalLong jitter_ms, OptionalDouble loss_percent, OptionalLong rate_mbit, Optional<Boolean> clear) {}

  public static List<CapabilityDefinition<?, ?>> definitions(ComputeService service) {
    return List.of(
        new CapabilityDefinition<>("net.create",
            "Create a sandbox network. nat=false networks are unreachable from outside the sandbox; attach a router "
                + "instance or use net.peer. No uplink gateway is accepted.",
            List.of("network", "bridge", "subnet", "lan"), CreateInput.class, NetworkView.class,
            (subject, in) -> {
              String kindText = in.kind().filter(k -> !k.isEmpty()).orElse("ovn");
              NetworkKind kind = NetworkKind.parse(kindText)
                  .orElseThrow(() -> Errors.of("unsupported network kind \"%s\"", kindText));
              boolean services = kind == NetworkKind.OVN;
              return NetworkView.of(service.createNetwork(in.sandbox(), new NetworkSpec(in.name(), kind,
                  in.cidr().orElse(""), in.dhcp().orElse(services), in.nat().orElse(services),
                  in.dns().orElse(services))));
            }),
        new CapabilityDefinition<>("net.list", "List sandbox networks.", List.of("networks"), SandboxInput.class,
            ListOutput.class,
            (subject, in) -> new ListOutput(service.listNetworks(in.sandbox()).stream().map(NetworkView::of).toList())),
        new CapabilityDefinition<>("net.get", "Get one sandbox network.", List.of("network details"), RefInput.class,
            NetworkView.class, (subject, in) -> NetworkView.of(service.getNetwork(in.sandbox(), in.name()))),
        new CapabilityDefinition<>("net.delete", "Delete a sandbox network.", List.of("remove network"),
            RefInput.class, Empty.class,
            (subject, in) -> {
              service.deleteNetwork(in.sandbox(), in.name());
              return new Empty();
            }),
        new CapabilityDefinition<>("net.attach", "Attach a NIC to an instance.", List.of("nic", "interface", "plug"),
            AttachInput.class, AttachOutput.class,
            (subject, in) -> {
              Instance.Nic nic = service.attach(in.sandbox(), in.instance(), in.network(), in.nic().orElse(""),
                  in.ip().orElse(""), in.mac().orElse(""));
              return new AttachOutput(nic.name(), nic.mac());
            }),
        new CapabilityDefinition<>("net.detach", "Detach a NIC from an instance.", List.of("nic", "unplug"),
            DetachInput.class, Empty.class,
            (subject, in) -> {
              service.detach(in.sandbox(), in.instance(), in.nic());
              return new Empty();
            }),
        new CapabilityDefinition<>("net.impair", "Apply Linux tc netem impairment on a NIC.",
            List.of("latency", "loss", "jitter", "bandwidth", "tc", "netem"), ImpairInput.class, Empty.class,
            (subject, in) -> {
              impair(service, in);
              return new Empty();
            }));
  }

  static void impair(ComputeService service, ImpairInput in) {
    Sandbox sandbox = service.requireSandbox(in.sandbox());
    Names.require(in.instance());
    Names.require(in.nic());
    boolean clear = in.clear().orElse(false);
    Impairment impairment = clear ? null : Impairment.of(in.latency_ms().orElse(0), in.jitter_ms().orElse(0),
        in.loss_percent().orElse(0), in.rate_mbit().orElse(0));
    Instance instance = service.backend().getInstance(sandbox, in.instance())
        .orElseThrow(() -> Errors.instanceNotFound(in.instance(), in.sandbox()));
    if (!instance.status().equals("Running")) {
      throw Errors.instanceNotRunning(in.instance(), in.sandbox());
    }
    Instance.Nic nic = instance.nics().stream().filter(n -> n.name().equals(in.nic())).findFirst()
        .orElseThrow(() -> Errors.nicNotFound(in.nic(), in.instance(), in.sandbox()));
    String os = instance.os().toLowerCase(Locale.ROOT);
    if (os.startsWith("windows") || os.equals("darwin") || os.equals("macos")) {
      throw Errors.of("net.impair is not supported on %s guests", instance.os());
    }
    ExecResult uname = run(service, sandbox, in.instance(), "uname -s");
    if (uname.exitCode() != 0 || !uname.stdout().trim().equalsIgnoreCase("Linux")) {
      throw Errors.of("net.impair is not supported on non-Linux guests");
    }
    String iface = guestInterface(service, sandbox, in.instance(), nic);
    if (!Names.matchesGrammar(iface)) {
      throw Errors.of("unsupported guest NIC name \"%s\"", iface);
    }
    ExecResult result = run(service, sandbox, in.instance(),
        clear ? Impairment.clearScript(iface) : impairment.applyScript(iface));
    if (result.exitCode() != 0) {
      String detail = result.stderr().trim();
      throw detail.isEmpty()
          ? Errors.of("impair failed on nic \"%s\" of instance \"%s\"", in.nic(), in.instance())
          : Errors.of("impair failed on nic \"%s\" of instance \"%s\": %s", in.nic(), in.instance(), detail);
    }
  }

  /** The guest's interface name for a NIC, matched by MAC (VM interface names may differ). */
  private static String guestInterface(ComputeService service, Sandbox sandbox, String instance, Instance.Nic nic) {
    if (nic.mac().isEmpty()) {
      return nic.name();
    }
    ExecResult found = run(service, sandbox, instance,
        "for i in /sys/class/net/*; do [ \"$(cat $i/address)\" = \"" + nic.mac().toLowerCase(Locale.ROOT)
            + "\" ] && basename $i; done; true");
    String name = found.stdout().trim();
    return name.isEmpty() || name.contains("\n") ? nic.name() : name;
  }

  private static ExecResult run(ComputeService service, Sandbox sandbox, String instance, String script) {
    return service.backend().exec(sandbox, instance,
        new ExecRequest(List.of("sh", "-c", script), Map.of(), "", -1, "", null));
  }
}
