package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImpairmentTest {
  @Test
  void validationTextsAndOrderAreTheOriginals() {
    assertThatThrownBy(() -> Impairment.of(-1, 0, 0, 0))
        .hasMessage("impairment values must be non-negative");
    assertThatThrownBy(() -> Impairment.of(0, 0, -0.5, 0))
        .hasMessage("impairment values must be non-negative");
    assertThatThrownBy(() -> Impairment.of(0, 0, 100.5, 0))
        .hasMessage("loss_percent must be between 0 and 100");
    assertThatThrownBy(() -> Impairment.of(0, 0, Double.NaN, 0))
        .hasMessage("loss_percent must be between 0 and 100");
    assertThatThrownBy(() -> Impairment.of(0, 5, 0, 0)).hasMessage("jitter_ms requires latency_ms");
    assertThatThrownBy(() -> Impairment.of(0, 0, 0, 0)).hasMessage("no impairment specified");
  }

  @Test
  void netemArgumentsFollowTheOriginalsOrderAndFormatting() {
    assertThat(Impairment.of(100, 10, 2.5, 5).applyScript("eth0"))
        .isEqualTo(
            "tc qdisc replace dev eth0 root handle 1: netem delay 100ms 10ms loss 2.5% rate 5mbit");
    assertThat(Impairment.of(0, 0, 1.0, 0).netemArguments()).isEqualTo("loss 1%");
    assertThat(Impairment.of(20, 0, 0, 0).netemArguments()).isEqualTo("delay 20ms");
  }

  @Test
  void clearOnlyRemovesOurNetem() {
    assertThat(Impairment.clearScript("eth1"))
        .contains("tc qdisc show dev eth1")
        .contains("*\"qdisc netem 1: root\"*) tc qdisc del dev eth1 root");
  }
}
