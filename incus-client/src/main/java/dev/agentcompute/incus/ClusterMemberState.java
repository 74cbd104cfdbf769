package dev.agentcompute.incus;

import java.util.List;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * {@code GET /1.0/cluster/members/{name}/state}: load and memory, used for placement. The sizes are
 * Go {@code uint64}s, read two's complement ({@link Uint64}): a {@code freeRam} Incus computed
 * below zero reads negative.
 */
public record ClusterMemberState(SysInfo sysinfo) {

  public record SysInfo(
      long uptime,
      List<Double> loadAverages,
      @JsonDeserialize(using = Uint64.class) long totalRam,
      @JsonDeserialize(using = Uint64.class) long freeRam,
      @JsonDeserialize(using = Uint64.class) long sharedRam,
      @JsonDeserialize(using = Uint64.class) long bufferedRam,
      @JsonDeserialize(using = Uint64.class) long totalSwap,
      @JsonDeserialize(using = Uint64.class) long freeSwap,
      long processes,
      long logicalCpus) {

    public SysInfo {
      loadAverages = loadAverages == null ? List.of() : loadAverages;
    }
  }
}
