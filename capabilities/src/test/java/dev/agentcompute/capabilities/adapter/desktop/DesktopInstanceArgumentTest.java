package dev.agentcompute.capabilities.adapter.desktop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** desktop.* take the instance as instance= or as name= (what instance.* call it). */
class DesktopInstanceArgumentTest {

  @Test
  void eitherNameWorks() {
    assertThat(DesktopCapabilities.instance(Optional.of("desk"), Optional.empty()))
        .isEqualTo("desk");
    assertThat(DesktopCapabilities.instance(Optional.empty(), Optional.of("desk")))
        .isEqualTo("desk");
    assertThat(DesktopCapabilities.instance(Optional.of("desk"), Optional.of("desk")))
        .isEqualTo("desk");
  }

  @Test
  void noneOrTwoDifferentAreRefusedWithTheFix() {
    assertThatThrownBy(() -> DesktopCapabilities.instance(Optional.empty(), Optional.of("")))
        .hasMessage(
            "missing the instance: pass instance=\"<name>\" (or name=, as instance.* call it)");
    assertThatThrownBy(() -> DesktopCapabilities.instance(Optional.of("a"), Optional.of("b")))
        .hasMessage(
            "instance \"a\" and name \"b\" differ: pass the instance once, as instance= or name=");
  }
}
