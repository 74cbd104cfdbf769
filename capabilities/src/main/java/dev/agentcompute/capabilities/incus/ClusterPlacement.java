package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.Optional;

/**
 * The {@code ?target=} of a new instance (docs/reference/incus-cluster.md#placement). On a
 * standalone server there is none. On a cluster, a bridge sandbox's instances go to the sandbox's
 * member (its bridge's subnet lives there), and an OVN sandbox's go to the explicit host or the
 * member {@link Placement#automatic} chooses from the members' current load.
 */
final class ClusterPlacement {
  private final ClusterMembers members;

  ClusterPlacement(ClusterMembers members) {
    this.members = members;
  }

  /** The member to create on; {@code host} is the agent's, empty when not given. */
  Optional<String> target(Sandbox sandbox, String host) {
    if (!members.clustered()) {
      return Optional.empty();
    }
    if (sandbox.networkKind() == NetworkKind.BRIDGE) {
      String member = sandbox.member();
      if (member.isEmpty() || member.equals("none")) {
        return Optional.empty();
      }
      return Optional.of(Placement.sandboxMember(members.loads(false), member));
    }
    if (!host.isEmpty()) {
      return Optional.of(Placement.explicit(members.loads(false), host));
    }
    return Optional.of(Placement.automatic(members.loads(true)));
  }
}
