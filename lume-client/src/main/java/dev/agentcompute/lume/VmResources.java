package dev.agentcompute.lume;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The body of {@code PATCH /lume/vms/{name}}. Lume rejects a disk size equal to or smaller than the
 * current one, so {@code diskGb} is sent only when the caller has decided to grow the disk.
 */
public record VmResources(int cpus, long memoryMb, OptionalLong diskGb) {

  public VmResources {
    if (cpus <= 0 || memoryMb <= 0 || (diskGb.isPresent() && diskGb.getAsLong() <= 0)) {
      throw new IllegalArgumentException("cpu, memory, and disk size must be positive");
    }
  }

  Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("cpu", cpus);
    body.put("memory", memoryMb + "MB");
    diskGb.ifPresent(gb -> body.put("diskSize", gb + "GB"));
    return body;
  }
}
