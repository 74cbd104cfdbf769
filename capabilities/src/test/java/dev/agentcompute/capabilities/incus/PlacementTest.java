package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The placement rules of docs/reference/incus-cluster.md#placement, each deciding a case of its
 * own: every test below is won by a different rule, with the other rules pointing the other way.
 */
class PlacementTest {
  private static final long GIB = 1L << 30;

  private static MemberLoad online(String name, long freeRam, double load1) {
    return new MemberLoad(name, "Online", "", freeRam, load1);
  }

  @Test
  void theMemberWithTheMostFreeRamWinsOverALowerLoadAndAnEarlierName() {
    List<MemberLoad> members =
        List.of(online("a", 2 * GIB, 0.1), online("b", 2 * GIB, 0.2), online("c", 3 * GIB, 5.0));

    assertThat(Placement.automatic(members)).isEqualTo("c");
  }

  @Test
  void betweenEqualFreeRamTheLowestOneMinuteLoadWinsOverAnEarlierName() {
    List<MemberLoad> members = List.of(online("a", 2 * GIB, 1.5), online("b", 2 * GIB, 0.5));

    assertThat(Placement.automatic(members)).isEqualTo("b");
  }

  @Test
  void betweenEqualFreeRamAndLoadTheFirstNameWins() {
    List<MemberLoad> members = List.of(online("m2", GIB, 1.0), online("m1", GIB, 1.0));

    assertThat(Placement.automatic(members)).isEqualTo("m1");
  }

  @Test
  void anOfflineMemberIsNoCandidateWhateverItsFreeRam() {
    List<MemberLoad> members =
        List.of(new MemberLoad("big", "Offline", "all", 64 * GIB, 0), online("small", GIB, 3));

    assertThat(Placement.automatic(members)).isEqualTo("small");
  }

  @ParameterizedTest
  @ValueSource(strings = {"manual", "group", "MANUAL"})
  void aMemberWhoseSchedulerIsManualOrGroupIsNoCandidateForAutomaticPlacement(String scheduler) {
    List<MemberLoad> members =
        List.of(new MemberLoad("big", "Online", scheduler, 64 * GIB, 0), online("small", GIB, 3));

    assertThat(Placement.automatic(members)).isEqualTo("small");
  }

  @Test
  void withNoCandidateTheRefusalListsEveryMemberAndWhatToDo() {
    List<MemberLoad> members =
        List.of(
            new MemberLoad("m1", "Offline", "", 0, 0),
            new MemberLoad("m2", "Online", "manual", GIB, 0),
            new MemberLoad("m3", "Evacuated", "group", GIB, 0));

    assertThatThrownBy(() -> Placement.automatic(members))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "no online cluster member is available: m1 (Offline, scheduler.instance all),"
                + " m2 (Online, scheduler.instance manual), m3 (Evacuated, scheduler.instance"
                + " group); bring a member back online, set scheduler.instance=all on one, or"
                + " name a host");
  }

  @Test
  void anExplicitHostIsMatchedCaseInsensitivelyAndAnsweredInTheClustersSpelling() {
    List<MemberLoad> members = List.of(online("lab01", GIB, 0), online("Lab02", GIB, 0));

    assertThat(Placement.explicit(members, "LAB02")).isEqualTo("Lab02");
  }

  @Test
  void anExplicitHostNeedNotBeTheAutomaticChoiceNorTakeAutomaticPlacement() {
    List<MemberLoad> members =
        List.of(online("big", 8 * GIB, 0), new MemberLoad("pinned", "Online", "manual", GIB, 9));

    assertThat(Placement.explicit(members, "pinned")).isEqualTo("pinned");
  }

  @Test
  void anExplicitHostThatIsNotOnlineIsRefused() {
    List<MemberLoad> members =
        List.of(online("lab01", GIB, 0), new MemberLoad("lab02", "Offline", "", 0, 0));

    assertThatThrownBy(() -> Placement.explicit(members, "lab02"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "host \"lab02\" is not online (status Offline); name an Online member or leave host"
                + " out");
  }

  @Test
  void anExplicitHostTheClusterDoesNotListIsRefusedNamingTheMembers() {
    List<MemberLoad> members = List.of(online("lab01", GIB, 0), online("lab02", GIB, 0));

    assertThatThrownBy(() -> Placement.explicit(members, "lab03"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("host \"lab03\" is not available; the cluster's members are lab01, lab02");
  }

  @Test
  void aBridgeSandboxsMemberThatIsNotOnlineIsRefusedSayingTheInstancesLiveThere() {
    List<MemberLoad> members = List.of(new MemberLoad("lab02", "Offline", "", 0, 0));

    assertThatThrownBy(() -> Placement.sandboxMember(members, "lab02"))
        .hasMessage(
            "sandbox member \"lab02\" is not online (status Offline); the sandbox's instances live"
                + " there: retry when it is back");
  }
}
