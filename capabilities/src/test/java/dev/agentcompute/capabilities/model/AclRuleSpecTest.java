package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AclRuleSpecTest {
  private static final List<Ipv4Cidr> PROTECTED =
      List.of(
          Ipv4Cidr.parse("10.10.10.0/24").orElseThrow(),
          Ipv4Cidr.parse("10.10.70.0/24").orElseThrow());

  private static AclRuleSpec allow(String direction, String dst) {
    return AclRuleSpec.validated(direction, "allow", "", "", dst, "", PROTECTED);
  }

  @Test
  void allowIntoOrAcrossProtectedRangesIsRefused() {
    for (String dst :
        new String[] {
          "",
          "@external",
          "10.0.0.0/8",
          "10.10.10.128/25",
          "10.10.70.20",
          "::ffff:10.10.10.0/120",
          "::ffff:10.10.70.1",
          "::ffff:0:0/95",
          "0.0.0.0/0",
          "10.10.10.0/33",
          "host.example"
        }) {
      assertThatThrownBy(() -> allow("egress", dst))
          .as(dst)
          .hasMessage("allow requires an explicit destination outside management and OOB ranges");
      assertThatThrownBy(() -> allow("ingress", dst))
          .as(dst)
          .hasMessage("allow requires an explicit destination outside management and OOB ranges");
    }
  }

  @Test
  void allowOutsideIsAccepted() {
    assertThat(allow("egress", "10.212.4.0/24").destination()).isEqualTo("10.212.4.0/24");
    assertThat(allow("egress", "10.10.11.5").destination()).isEqualTo("10.10.11.5");
    assertThat(allow("egress", "::ffff:10.10.11.0/120").destination())
        .isEqualTo("::ffff:10.10.11.0/120");
    assertThat(allow("egress", "2001:db8::/32").destination()).isEqualTo("2001:db8::/32");
  }

  @Test
  void dropNeedsNoDestination() {
    AclRuleSpec rule = AclRuleSpec.validated("egress", "drop", null, null, null, null, PROTECTED);
    assertThat(rule)
        .isEqualTo(
            new AclRuleSpec(AclDirection.EGRESS, AclAction.DROP, AclProtocol.ANY, "", "", ""));
  }

  @Test
  void configuredRangesAreTheOnesProtected() {
    List<Ipv4Cidr> other = List.of(Ipv4Cidr.parse("192.168.0.0/16").orElseThrow());
    assertThat(
            AclRuleSpec.validated("egress", "allow", "", "", "10.10.10.1", "", other).destination())
        .isEqualTo("10.10.10.1");
    assertThatThrownBy(
            () -> AclRuleSpec.validated("egress", "allow", "", "", "192.168.3.0/24", "", other))
        .hasMessage(AclRuleSpec.ALLOW_DESTINATION_REQUIRED);
  }

  @Test
  void orderOfChecks() {
    assertThatThrownBy(() -> AclRuleSpec.validated("up", "permit", "x", "", "", "1", PROTECTED))
        .hasMessage("direction \"up\" is not supported");
    assertThatThrownBy(() -> AclRuleSpec.validated("egress", "permit", "x", "", "", "1", PROTECTED))
        .hasMessage("action \"permit\" is not supported");
    assertThatThrownBy(() -> AclRuleSpec.validated("egress", "allow", "x", "", "", "1", PROTECTED))
        .hasMessage("protocol \"x\" is not supported");
    assertThatThrownBy(() -> AclRuleSpec.validated("egress", "allow", "", "", "", "1", PROTECTED))
        .hasMessage("port requires tcp or udp");
  }
}
