package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Errors;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which cluster member a new instance goes to (docs/reference/incus-cluster.md#placement), decided
 * from the members as they are now and nothing else. An explicit host must be an Online member (its
 * name compared case-insensitively). Without one, the candidates are the Online members whose
 * {@code scheduler.instance} is neither {@code manual} nor {@code group}, and the one with the most
 * free RAM wins, then the lowest one-minute load, then the name.
 */
final class Placement {
  /** The order of preference among candidates: the first one wins. */
  static final Comparator<MemberLoad> PREFERENCE =
      Comparator.comparingLong(MemberLoad::freeRam)
          .reversed()
          .thenComparingDouble(MemberLoad::load1)
          .thenComparing(MemberLoad::name);

  private Placement() {}

  /** The member {@code host} names, in Incus's spelling; refused unless it is Online. */
  static String explicit(List<MemberLoad> members, String host) {
    MemberLoad member =
        members.stream()
            .filter(m -> m.name().equalsIgnoreCase(host))
            .findFirst()
            .orElseThrow(
                () ->
                    Errors.of(
                        "host \"%s\" is not available; the cluster's members are %s",
                        host,
                        members.stream().map(MemberLoad::name).collect(Collectors.joining(", "))));
    if (!member.online()) {
      throw Errors.of(
          "host \"%s\" is not online (status %s); name an Online member or leave host out",
          host, member.status());
    }
    return member.name();
  }

  /**
   * The member of a bridge sandbox, which its instances cannot leave: refused while it is not
   * Online.
   */
  static String sandboxMember(List<MemberLoad> members, String member) {
    MemberLoad found =
        members.stream()
            .filter(m -> m.name().equalsIgnoreCase(member))
            .findFirst()
            .orElseThrow(
                () ->
                    Errors.of(
                        "sandbox member \"%s\" is not a member of the cluster (%s); the sandbox's"
                            + " instances cannot be placed",
                        member,
                        members.stream().map(MemberLoad::name).collect(Collectors.joining(", "))));
    if (!found.online()) {
      throw Errors.of(
          "sandbox member \"%s\" is not online (status %s); the sandbox's instances live there:"
              + " retry when it is back",
          found.name(), found.status());
    }
    return found.name();
  }

  /** The best candidate for automatic placement; refused, listing every member, when none is. */
  static String automatic(List<MemberLoad> members) {
    return members.stream()
        .filter(MemberLoad::online)
        .filter(MemberLoad::takesAutomaticPlacement)
        .min(PREFERENCE)
        .map(MemberLoad::name)
        .orElseThrow(
            () ->
                Errors.of(
                    "no online cluster member is available: %s; bring a member back online, set"
                        + " scheduler.instance=all on one, or name a host",
                    members.isEmpty()
                        ? "the cluster lists no members"
                        : members.stream()
                            .map(MemberLoad::describe)
                            .collect(Collectors.joining(", "))));
  }
}
