package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ClusterMemberStateTest {

  /**
   * Incus sends sysinfo's fields as Go uint64. Intercepting sysinfo(2) in a container, it computes
   * free_ram as limit - usage - cache, which wraps around 2^64 once usage and cache together pass
   * the limit (seen on a 1 GiB member after reading a 500 MB file: 18446744073353695000).
   */
  @Test
  void readsAWrappedFreeRamAsTheNegativeNumberItStandsFor() {
    JsonNode node =
        Json.mapper()
            .readTree(
                """
                {"sysinfo": {"uptime": 277, "load_averages": [7.52, 7.24, 3.81],
                 "total_ram": 1073741824, "free_ram": 18446744073353695000,
                 "buffered_ram": 146800640, "processes": 40, "logical_cpus": 2}}
                """);
    ClusterMemberState state = Json.mapper().treeToValue(node, ClusterMemberState.class);
    assertThat(state.sysinfo().freeRam()).isEqualTo(-355_856_616L);
    assertThat(state.sysinfo().totalRam()).isEqualTo(1_073_741_824L);
    assertThat(state.sysinfo().loadAverages()).containsExactly(7.52, 7.24, 3.81);
  }

  @Test
  void readsOrdinaryFiguresAsTheyAre() {
    ClusterMemberState state =
        Json.mapper()
            .readValue(
                """
                {"sysinfo": {"total_ram": 2147483648, "free_ram": 1978000000,
                 "load_averages": [0.5, 0.4, 0.3]}}
                """,
                ClusterMemberState.class);
    assertThat(state.sysinfo().freeRam()).isEqualTo(1_978_000_000L);
    assertThat(state.sysinfo().totalRam()).isEqualTo(2_147_483_648L);
  }
}
