package dev.agentcompute.capabilities.incus;

import dev.agentcompute.incus.ClusterMember;
import dev.agentcompute.incus.ClusterMemberState;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The cluster as agentcompute reads it: whether the daemon is clustered at all ({@code GET
 * /1.0/cluster}, asked once: a standalone server does not become a member while we run), its
 * members ({@code GET /1.0/cluster/members?recursion=1}) and their load ({@code .../state}).
 */
final class ClusterMembers {
  private final IncusClient client;
  private volatile Boolean clustered;

  ClusterMembers(IncusClient client) {
    this.client = client.inProject(null).onTarget(null);
  }

  boolean clustered() {
    Boolean known = clustered;
    if (known == null) {
      known = client.cluster().info().enabled();
      clustered = known;
    }
    return known;
  }

  /** The member names, in the order Incus lists them. */
  List<String> names() {
    return client.cluster().members().stream().map(ClusterMember::serverName).toList();
  }

  /** Each member's status by name, for error texts; empty when they cannot be read. */
  Map<String, String> statuses() {
    try {
      return client.cluster().members().stream()
          .collect(Collectors.toMap(ClusterMember::serverName, ClusterMember::status));
    } catch (IncusException e) {
      return Map.of();
    }
  }

  /**
   * Every member as placement sees it; with {@code withLoad}, the free RAM and one-minute load of
   * each Online member that automatic placement may choose (one {@code /state} request each). A
   * member whose state cannot be read is reported {@code Unreachable}: it is not a candidate.
   */
  List<MemberLoad> loads(boolean withLoad) {
    List<MemberLoad> result = new ArrayList<>();
    for (ClusterMember m : client.cluster().members()) {
      String scheduler = m.config().getOrDefault("scheduler.instance", "");
      MemberLoad plain = new MemberLoad(m.serverName(), m.status(), scheduler, 0, 0);
      if (!withLoad || !plain.online() || !plain.takesAutomaticPlacement()) {
        result.add(plain);
        continue;
      }
      try {
        ClusterMemberState.SysInfo info = client.cluster().memberState(m.serverName()).sysinfo();
        double load1 = info.loadAverages().isEmpty() ? 0 : info.loadAverages().getFirst();
        result.add(new MemberLoad(m.serverName(), m.status(), scheduler, info.freeRam(), load1));
      } catch (IncusException e) {
        result.add(new MemberLoad(m.serverName(), "Unreachable", scheduler, 0, 0));
      }
    }
    return result;
  }

  /** The member's status, if the cluster lists it and answers. */
  Optional<String> status(String member) {
    return Optional.ofNullable(statuses().get(member));
  }
}
