package dev.agentcompute.incus;

import java.util.List;
import tools.jackson.core.type.TypeReference;

/**
 * {@code /1.0/cluster}: membership and member load. On a standalone server only {@link #info}
 * works.
 */
public final class Cluster {

  private final Rest rest;

  Cluster(Rest rest) {
    this.rest = rest;
  }

  public ClusterInfo info() {
    return rest.get(Scope.DEFAULT, "/1.0/cluster", ClusterInfo.class);
  }

  public List<ClusterMember> members() {
    return rest.get(
        Scope.DEFAULT,
        "/1.0/cluster/members?recursion=1",
        new TypeReference<List<ClusterMember>>() {});
  }

  public ClusterMember member(String name) {
    return rest.get(
        Scope.DEFAULT, "/1.0/cluster/members/" + Scope.segment(name), ClusterMember.class);
  }

  public ClusterMemberState memberState(String name) {
    return rest.get(
        Scope.DEFAULT,
        "/1.0/cluster/members/" + Scope.segment(name) + "/state",
        ClusterMemberState.class);
  }
}
