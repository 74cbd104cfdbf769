package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OvnAddressTest {
  @Test
  void routerAddressRule() {
    assertThat(OvnAddress.routerAddress("192.168.50.0/24"))
        .map(Object::toString)
        .contains("192.168.50.1/24");
    assertThat(OvnAddress.routerAddress("192.168.50.7/24"))
        .map(Object::toString)
        .contains("192.168.50.7/24");
    assertThat(OvnAddress.routerAddress("10.0.0.0/8")).map(Object::toString).contains("10.0.0.1/8");
    assertThat(OvnAddress.routerAddress("10.1.2.3/32")).isEmpty();
    assertThat(OvnAddress.routerAddress("0.0.0.0/0")).isEmpty();
    assertThat(OvnAddress.routerAddress("10.1.2.0")).isEmpty();
    assertThat(OvnAddress.routerAddress("banana")).isEmpty();
  }

  @Test
  void rangesAreCidrsOrDashedPairs() {
    AddressRange cidr = AddressRange.parse("10.10.40.64/26").orElseThrow();
    assertThat(cidr.firstFree(List.of())).contains("10.10.40.64");
    assertThat(cidr.last() - cidr.first()).isEqualTo(63);
    AddressRange pair = AddressRange.parse("10.90.0.100-10.90.0.102").orElseThrow();
    assertThat(pair.firstFree(List.of("10.90.0.100"))).contains("10.90.0.101");
    assertThat(pair.firstFree(List.of("10.90.0.100", "10.90.0.101", "10.90.0.102"))).isEmpty();
    assertThat(AddressRange.parse("10.0.0.9-10.0.0.1")).isEmpty();
    assertThat(AddressRange.parse("")).isEmpty();
    assertThat(
            pair.intersection(AddressRange.parse("10.90.0.0/24").orElseThrow())
                .orElseThrow()
                .addresses())
        .containsExactly("10.90.0.100", "10.90.0.101", "10.90.0.102");
    assertThat(
            pair.intersection(AddressRange.parse("10.90.0.101/32").orElseThrow())
                .orElseThrow()
                .addresses())
        .containsExactly("10.90.0.101");
    assertThat(pair.intersection(AddressRange.parse("10.91.0.0/16").orElseThrow())).isEmpty();
    assertThat(
            AddressRange.parse("255.255.255.254/31")
                .orElseThrow()
                .firstFree(List.of("255.255.255.254")))
        .contains("255.255.255.255");
  }
}
