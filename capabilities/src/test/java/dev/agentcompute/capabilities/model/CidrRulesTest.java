package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CidrRulesTest {
  private static final SubnetPool POOL = SubnetPool.parse("10.210.0.0/16", 24);
  private static final List<Ipv4Cidr> PROTECTED =
      List.of(
          Ipv4Cidr.parse("10.10.10.0/24").orElseThrow(),
          Ipv4Cidr.parse("10.10.70.0/24").orElseThrow());

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "127.0.0.1/8    | cidr \"127.0.0.1/8\" is outside the sandbox subnet pool 10.210.0.0/16",
        "0.0.0.1/0      | cidr \"0.0.0.1/0\" is outside the sandbox subnet pool 10.210.0.0/16",
        "10.10.10.1/24  | cidr \"10.10.10.1/24\" is outside the sandbox subnet pool 10.210.0.0/16",
        "10.211.0.1/24  | cidr \"10.211.0.1/24\" is outside the sandbox subnet pool 10.210.0.0/16",
        "10.0.0.1/8     | cidr \"10.0.0.1/8\" is outside the sandbox subnet pool 10.210.0.0/16",
        "10.210.5.0/24  | cidr \"10.210.5.0/24\" is a network address; give the bridge's own address, such as \"10.210.5.1/24\"",
        "10.210.5.255/24 | cidr \"10.210.5.255/24\" is the broadcast address; give the bridge's own address, such as \"10.210.5.1/24\"",
        "10.210.5.1/31  | cidr \"10.210.5.1/31\" leaves no room for instances: use a prefix of /30 or shorter",
        "10.210.5.1/32  | cidr \"10.210.5.1/32\" leaves no room for instances: use a prefix of /30 or shorter",
        "10.210.5.1     | invalid cidr \"10.210.5.1\"",
      })
  void aBridgeCidrTheAgentMayNotChooseIsRefusedNamingTheRule(String cidr, String message) {
    assertThatThrownBy(() -> CidrRules.bridge(cidr, POOL, PROTECTED)).hasMessage(message);
  }

  @Test
  void aBridgeCidrInsideThePoolIsAccepted() {
    assertThat(CidrRules.bridge("10.210.5.1/24", POOL, PROTECTED))
        .isEqualTo(Ipv4Cidr.parse("10.210.5.1/24").orElseThrow());
  }

  @Test
  void aPoolThatIsNotPrivateStillYieldsOnlyPrivateBridges() {
    SubnetPool publicPool = SubnetPool.parse("100.64.0.0/16", 24);

    assertThatThrownBy(() -> CidrRules.bridge("100.64.1.1/24", publicPool, PROTECTED))
        .hasMessage(
            "cidr \"100.64.1.1/24\" is not a private IPv4 prefix (10.0.0.0/8, 172.16.0.0/12 or"
                + " 192.168.0.0/16)");
  }

  @Test
  void aPoolThatHoldsAProtectedRangeStillKeepsBridgesOutOfIt() {
    SubnetPool wide = SubnetPool.parse("10.0.0.0/8", 24);

    assertThatThrownBy(() -> CidrRules.bridge("10.10.10.1/24", wide, PROTECTED))
        .hasMessage("cidr \"10.10.10.1/24\" overlaps the protected range 10.10.10.0/24");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "10.10.10.1/24 | cidr \"10.10.10.1/24\" overlaps the protected range 10.10.10.0/24",
        "10.10.0.1/16  | cidr \"10.10.0.1/16\" overlaps the protected range 10.10.10.0/24",
        "8.8.8.1/24    | cidr \"8.8.8.1/24\" is not a private IPv4 prefix (10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16)",
        "10.1.1.1/31   | cidr \"10.1.1.1/31\" leaves no room for instances: use a prefix of /30 or shorter",
      })
  void anOvnCidrMustBePrivateAndOutsideTheProtectedRanges(String cidr, String message) {
    Ipv4Cidr router = OvnAddress.routerAddress(cidr).orElseThrow();

    assertThatThrownBy(() -> CidrRules.ovn(cidr, router, PROTECTED)).hasMessage(message);
  }

  @Test
  void anOvnCidrOutsideThePoolIsAcceptedWhenPrivate() {
    Ipv4Cidr router = OvnAddress.routerAddress("192.168.50.0/24").orElseThrow();

    assertThat(CidrRules.ovn("192.168.50.0/24", router, PROTECTED)).isEqualTo(router);
  }

  @Test
  void aSubnetInUseIsNamedByItsNetwork() {
    Ipv4Cidr used = Ipv4Cidr.parse("10.210.2.1/24").orElseThrow();

    assertThat(CidrRules.inUse("10.210.2.9/24", used))
        .hasMessage("cidr \"10.210.2.9/24\" overlaps a subnet already in use (10.210.2.0/24)");
    assertThat(CidrRules.firstOverlap(Ipv4Cidr.parse("10.210.2.9/25").orElseThrow(), List.of(used)))
        .contains(used);
  }
}
