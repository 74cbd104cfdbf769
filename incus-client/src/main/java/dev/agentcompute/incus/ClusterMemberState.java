package dev.agentcompute.incus;

import java.util.List;

/** {@code GET /1.0/cluster/members/{name}/state}: load and memory, used for placement. */
public record ClusterMemberState(SysInfo sysinfo) {

  public record SysInfo(
      long uptime,
      List<Double> loadAverages,
      long totalRam,
      long freeRam,
      long sharedRam,
      long bufferedRam,
      long totalSwap,
      long freeSwap,
      long processes,
      long logicalCpus) {

    public SysInfo {
      loadAverages = loadAverages == null ? List.of() : loadAverages;
    }
  }
}
