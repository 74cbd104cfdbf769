package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TtlPolicyTest {
  private final TtlPolicy policy = new TtlPolicy(Duration.ofMinutes(240), Duration.ofMinutes(1440));

  @Test
  void zeroSelectsTheDefaultAndValuesUpToTheMaximumPass() {
    assertThat(policy.resolve(0)).isEqualTo(Duration.ofMinutes(240));
    assertThat(policy.resolve(1)).isEqualTo(Duration.ofMinutes(1));
    assertThat(policy.resolve(1440)).isEqualTo(Duration.ofMinutes(1440));
  }

  @Test
  void aboveTheMaximumIsRefusedWithTheMaximumNamed() {
    assertThatThrownBy(() -> policy.resolve(1441))
        .hasMessage("ttl exceeds maximum of 1440 minutes");
  }

  @Test
  void handlerBoundsAreTheOriginals() {
    assertThatThrownBy(() -> TtlPolicy.checkArgument(0)).hasMessage("ttl_minutes must be positive");
    assertThatThrownBy(() -> TtlPolicy.checkArgument(-5))
        .hasMessage("ttl_minutes must be positive");
    assertThatThrownBy(() -> TtlPolicy.checkArgument(153_722_868L))
        .hasMessage("ttl_minutes is too large");
    assertThat(TtlPolicy.checkArgument(153_722_867L)).isEqualTo(153_722_867L);
  }

  @Test
  void configurationMustKeepDefaultWithinMaximum() {
    assertThatThrownBy(() -> new TtlPolicy(Duration.ofMinutes(10), Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default <= maximum");
    assertThatThrownBy(() -> new TtlPolicy(Duration.ZERO, Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
