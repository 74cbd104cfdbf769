package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.NetworkAcl;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BridgeBaselineTest {
  private static Ipv4Cidr cidr(String text) {
    return Ipv4Cidr.parse(text).orElseThrow();
  }

  @Test
  void rejectsProtectedRangesAndEachHostAddressOutsideThePool() {
    List<NetworkAcl.Rule> rules =
        BridgeBaseline.rules(
            SubnetPool.parse("10.210.0.0/16", 24),
            List.of(cidr("10.10.10.0/24"), cidr("192.0.2.0/25")),
            List.of(
                cidr("192.0.2.2/24"), // inside a protected range: covered
                cidr("10.210.4.1/24"), // a sandbox gateway: covered by the pool
                cidr("198.51.100.7/24"),
                cidr("10.90.0.1/24"),
                cidr("198.51.100.7/32"))); // the same address twice
    assertThat(rules)
        .extracting(NetworkAcl.Rule::action, NetworkAcl.Rule::destination)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("reject", "10.10.10.0/24"),
            org.assertj.core.groups.Tuple.tuple("reject", "192.0.2.0/25"),
            org.assertj.core.groups.Tuple.tuple("reject", "10.90.0.1"),
            org.assertj.core.groups.Tuple.tuple("reject", "198.51.100.7"));
    assertThat(rules)
        .allSatisfy(r -> assertThat(r.description()).startsWith("agentcompute:baseline "));
  }

  @Test
  void bridgesShutIngressAndNameTheirFence() {
    BridgeBaseline baseline =
        new BridgeBaseline(null, null, SubnetPool.parse("10.211.0.0/17", 24), List.of());
    assertThat(baseline.name()).isEqualTo("agentcompute-baseline-10-211-0-0-17");
    assertThat(baseline.bridgeConfig("ac0badf00d", true))
        .isEqualTo(
            Map.of(
                "security.acls", "agentcompute-baseline-10-211-0-0-17,ac0badf00d-fence",
                "security.acls.default.ingress.action", "reject",
                "security.acls.default.egress.action", "allow"));
    assertThat(baseline.bridgeConfig("ac0badf00d", false))
        .containsEntry("security.acls", "agentcompute-baseline-10-211-0-0-17");
  }

  @Test
  void aFenceRejectsThePoolOrEverythingButItsOwnSubnetAndItsGateway() {
    SubnetPool pool = SubnetPool.parse("10.210.0.0/16", 24);
    assertThat(BridgeFence.rules(pool, "10.210.3.1/24", true).orElseThrow())
        .extracting(NetworkAcl.Rule::destination)
        .containsExactly(
            "10.210.3.1",
            "10.210.128.0/17",
            "10.210.64.0/18",
            "10.210.32.0/19",
            "10.210.16.0/20",
            "10.210.8.0/21",
            "10.210.4.0/22",
            "10.210.0.0/23",
            "10.210.2.0/24");
    List<String> noNat =
        BridgeFence.rules(pool, "10.210.3.1/24", false).orElseThrow().stream()
            .map(NetworkAcl.Rule::destination)
            .toList();
    assertThat(noNat).hasSize(25).startsWith("10.210.3.1", "128.0.0.0/1", "64.0.0.0/2");
    // Together the parts cover everything but the subnet, and nothing of it.
    List<Ipv4Cidr> parts = BridgeFence.minus(cidr("0.0.0.0/0"), cidr("10.210.3.0/24"));
    assertThat(parts.stream().mapToLong(Ipv4Cidr::size).sum()).isEqualTo((1L << 32) - 256);
    assertThat(parts).noneMatch(p -> p.overlaps(cidr("10.210.3.0/24")));
    assertThat(BridgeFence.rules(pool, "none", false)).isEmpty();
  }

  @Test
  void nicsFilterTheirMacAlwaysAndTheirIpv4WhenTheyCanHaveAKnownAddress() {
    Map<String, String> dhcp = Map.of("ipv4.address", "10.210.3.1/24", "ipv4.dhcp", "true");
    Map<String, String> noDhcp = Map.of("ipv4.address", "10.210.3.1/24", "ipv4.dhcp", "false");
    Map<String, String> bare = Map.of("ipv4.address", "none");
    assertThat(NicFiltering.keys(dhcp, ""))
        .containsEntry("security.mac_filtering", "true")
        .containsEntry("security.ipv4_filtering", "true");
    assertThat(NicFiltering.keys(noDhcp, "10.210.3.9"))
        .containsEntry("security.ipv4_filtering", "true");
    assertThat(NicFiltering.keys(noDhcp, "")).doesNotContainKey("security.ipv4_filtering");
    assertThat(NicFiltering.keys(bare, "")).isEqualTo(Map.of("security.mac_filtering", "true"));
  }
}
