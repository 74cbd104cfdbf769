package dev.agentcompute.capabilities;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import org.junit.jupiter.api.Test;

class ComputeCapabilitiesTest {
  @Test
  void namesListsEveryCapabilityOnceWithoutABackend() {
    var names = ComputeCapabilities.names();
    assertThat(names)
        .contains("sandbox.create", "sandbox.delete", "instance.exec", "desktop.screenshot");
    assertThat(new HashSet<>(names)).hasSameSizeAs(names);
  }
}
