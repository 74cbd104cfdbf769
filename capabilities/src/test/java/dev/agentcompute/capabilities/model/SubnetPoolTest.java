package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubnetPoolTest {
  private static Ipv4Cidr cidr(String text) {
    return Ipv4Cidr.parse(text).orElseThrow();
  }

  @Test
  void parsesAndFormatsIncusAddresses() {
    assertThat(cidr("10.1.0.1/24").toString()).isEqualTo("10.1.0.1/24");
    assertThat(cidr("10.1.0.1/24").network().toString()).isEqualTo("10.1.0.0/24");
    assertThat(cidr("10.1.0.1/24").addressText()).isEqualTo("10.1.0.1");
    assertThat(Ipv4Cidr.parse("auto")).isEmpty();
    assertThat(Ipv4Cidr.parse("none")).isEmpty();
    assertThat(Ipv4Cidr.parse("10.1.0.256/24")).isEmpty();
    assertThat(Ipv4Cidr.parse("10.1.0.1/33")).isEmpty();
    assertThat(Ipv4Cidr.parse("10.1.0/24")).isEmpty();
    assertThat(Ipv4Cidr.parse("fd42::1/64")).isEmpty();
  }

  @Test
  void overlapIsSymmetricAndPrefixAware() {
    assertThat(cidr("10.0.0.0/8").overlaps(cidr("10.5.5.1/24"))).isTrue();
    assertThat(cidr("10.5.5.1/24").overlaps(cidr("10.0.0.0/8"))).isTrue();
    assertThat(cidr("10.5.5.1/24").overlaps(cidr("10.5.6.1/24"))).isFalse();
  }

  @Test
  void hands_outTheFirstFreeBlockAsItsGateway() {
    SubnetPool pool = SubnetPool.parse("10.211.0.0/16", 24);
    assertThat(pool.firstFree(List.of())).contains(cidr("10.211.0.1/24"));
    assertThat(pool.firstFree(List.of(cidr("10.211.0.1/24"), cidr("10.211.2.1/24"))))
        .contains(cidr("10.211.1.1/24"));
    // A foreign network that overlaps part of the pool blocks every /24 it touches.
    assertThat(pool.firstFree(List.of(cidr("10.211.0.1/23")))).contains(cidr("10.211.2.1/24"));
    // Networks outside the pool do not matter.
    assertThat(pool.firstFree(List.of(cidr("192.168.1.1/24")))).contains(cidr("10.211.0.1/24"));
  }

  @Test
  void twoAllocationsNeverShareABlockAndAnExhaustedPoolSaysSo() {
    SubnetPool pool = SubnetPool.parse("10.211.0.0/22", 24);
    List<Ipv4Cidr> used = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Ipv4Cidr next = pool.firstFree(used).orElseThrow();
      assertThat(used).noneMatch(next::overlaps);
      used.add(next);
    }
    assertThat(pool.firstFree(used)).isEmpty();
    used.remove(1);
    assertThat(pool.firstFree(used)).contains(cidr("10.211.1.1/24"));
  }

  @Test
  void aRandomFreeBlockIsFreeSpreadsOverThePoolAndFindsTheLastOne() {
    SubnetPool pool = SubnetPool.parse("10.211.0.0/20", 24);
    java.util.Random random = new java.util.Random(7);
    List<Ipv4Cidr> used = List.of(cidr("10.211.0.1/24"), cidr("10.211.5.1/24"));
    java.util.Set<Ipv4Cidr> seen = new java.util.HashSet<>();
    for (int i = 0; i < 200; i++) {
      Ipv4Cidr block = pool.randomFree(used, random).orElseThrow();
      assertThat(used).noneMatch(block::overlaps);
      assertThat(block.prefix()).isEqualTo(24);
      seen.add(block);
    }
    assertThat(seen).hasSize(14);

    List<Ipv4Cidr> allButOne = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      if (i != 11) {
        allButOne.add(cidr("10.211." + i + ".1/24"));
      }
    }
    // Random probes may all miss the one free block; the fallback still finds it.
    assertThat(pool.randomFree(allButOne, random)).contains(cidr("10.211.11.1/24"));
    allButOne.add(cidr("10.211.11.1/24"));
    assertThat(pool.randomFree(allButOne, random)).isEmpty();
  }

  @Test
  void blockMustFitThePool() {
    assertThatThrownBy(() -> SubnetPool.parse("10.211.0.0/24", 16))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SubnetPool.parse("auto", 24))
        .hasMessageContaining("is not an IPv4 CIDR");
  }
}
