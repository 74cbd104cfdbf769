package dev.agentcompute.capabilities.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuotasTest {
  /** A Quotas whose every field differs from the defaults, so a wither that drops one shows. */
  private static final Quotas ODD =
      new Quotas(
          3,
          3000,
          30,
          300,
          7,
          Duration.ofHours(7),
          5,
          6,
          6000,
          3,
          60,
          500,
          new IdentityLimits(9, 9, 9, 9 * IdentityLimits.MIB),
          new ProcessLimits(4, 2));

  @Test
  void everyWitherChangesItsFieldAndKeepsTheOthers() {
    IdentityLimits identity = new IdentityLimits(2, 3, 4, 5 * IdentityLimits.MIB);
    ProcessLimits background = new ProcessLimits(11, 12);
    assertOnlyChanged(ODD.withProcesses(42), "processes", 42);
    assertOnlyChanged(ODD.withSandboxesPerIdentity(42), "sandboxesPerIdentity", 42);
    assertOnlyChanged(ODD.withIdentityLimits(identity), "identity", identity);
    assertOnlyChanged(ODD.withSandboxProcesses(42), "sandboxProcesses", 42);
    assertOnlyChanged(ODD.withBackground(background), "background", background);
  }

  @Test
  void withersStillValidate() {
    assertThatThrownBy(() -> ODD.withProcesses(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance.processes");
    assertThatThrownBy(() -> ODD.withSandboxProcesses(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sandbox.limits.processes");
    assertThatThrownBy(() -> ODD.withIdentityLimits(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void theShortConstructorTakesTheDefaultBackgroundLimits() {
    assertThat(Quotas.defaults().background()).isEqualTo(ProcessLimits.defaults());
  }

  private static void assertOnlyChanged(Quotas changed, String field, Object value) {
    List<String> differing = new ArrayList<>();
    for (RecordComponent c : Quotas.class.getRecordComponents()) {
      Object before = read(c, ODD);
      Object after = read(c, changed);
      if (!before.equals(after)) {
        differing.add(c.getName());
      }
      if (c.getName().equals(field)) {
        assertThat(after).as(field).isEqualTo(value);
      }
    }
    assertThat(differing).as("fields changed by the wither of " + field).containsExactly(field);
  }

  private static Object read(RecordComponent c, Quotas q) {
    try {
      return c.getAccessor().invoke(q);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
