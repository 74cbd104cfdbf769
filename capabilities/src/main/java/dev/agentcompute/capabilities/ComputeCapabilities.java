package dev.agentcompute.capabilities;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.CapabilityDocs;
import dev.agentcompute.capabilities.adapter.desktop.DesktopCapabilities;
import dev.agentcompute.capabilities.adapter.image.ImageCapabilities;
import dev.agentcompute.capabilities.adapter.instance.FileCapabilities;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.instance.ProcessCapabilities;
import dev.agentcompute.capabilities.adapter.net.NetCapabilities;
import dev.agentcompute.capabilities.adapter.net.OvnNetCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.LimitsCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.service.Compute;
import java.util.ArrayList;
import java.util.List;

/** Every compute capability, in discovery order. */
public final class ComputeCapabilities {
  private ComputeCapabilities() {}

  public static List<CapabilityDefinition<?, ?>> definitions(Compute compute) {
    List<CapabilityDefinition<?, ?>> all = new ArrayList<>();
    all.addAll(SandboxCapabilities.definitions(compute.sandboxes()));
    all.addAll(LimitsCapabilities.definitions(compute));
    all.addAll(ImageCapabilities.definitions(compute.images()));
    all.addAll(
        InstanceCapabilities.definitions(
            compute.instances(), compute.snapshots(), compute.files(), compute.processes()));
    all.addAll(FileCapabilities.definitions(compute.files()));
    all.addAll(ProcessCapabilities.definitions(compute.processes()));
    all.addAll(NetCapabilities.definitions(compute.networks(), compute.impairments()));
    all.addAll(OvnNetCapabilities.definitions(compute.networks()));
    all.addAll(DesktopCapabilities.definitions(compute.desktop()));
    if (compute.config() == null) {
      return List.copyOf(all);
    }
    // describe_api states this server's configured values where a text names a limit.
    return all.stream()
        .<CapabilityDefinition<?, ?>>map(
            d -> d.withDescription(CapabilityDocs.of(d.name(), compute.config()).description()))
        .toList();
  }

  /**
   * Every capability's name, without building a backend: the definitions only capture their
   * services, so they are listed over empty ones (what a configuration check compares ids with).
   */
  public static List<String> names() {
    Compute none = new Compute(null, null, null, null, null, null, null, null, null, null, null);
    return definitions(none).stream().map(CapabilityDefinition::name).toList();
  }
}
