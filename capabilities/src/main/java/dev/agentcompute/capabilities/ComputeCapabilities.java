package dev.agentcompute.capabilities;

import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.image.ImageCapabilities;
import dev.agentcompute.capabilities.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.net.NetCapabilities;
import dev.agentcompute.capabilities.net.OvnNetCapabilities;
import dev.agentcompute.capabilities.sandbox.SandboxCapabilities;
import java.util.ArrayList;
import java.util.List;

/** Every compute capability, in discovery order. */
public final class ComputeCapabilities {
  private ComputeCapabilities() {}

  public static List<CapabilityDefinition<?, ?>> definitions(ComputeService service) {
    List<CapabilityDefinition<?, ?>> all = new ArrayList<>();
    all.addAll(SandboxCapabilities.definitions(service));
    all.addAll(ImageCapabilities.definitions(service));
    all.addAll(InstanceCapabilities.definitions(service));
    all.addAll(NetCapabilities.definitions(service));
    all.addAll(OvnNetCapabilities.definitions(service));
    return List.copyOf(all);
  }
}
