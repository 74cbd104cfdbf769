package dev.agentcompute.capabilities.adapter.instance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.model.ExecRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Only instance.exec's foreground path asks for its output as progress. */
class ExecProgressFlagTest {
  private static final InstanceCapabilities.ExecInput IN =
      new InstanceCapabilities.ExecInput(
          "sb",
          "web",
          "make",
          OptionalLong.of(30),
          Optional.empty(),
          Optional.of("/src"),
          Optional.empty(),
          Optional.empty());

  @Test
  void theForegroundRequestReportsProgressAndIsOtherwiseTheSame() {
    ExecRequest foreground = InstanceCapabilities.foreground(IN);
    ExecRequest plain = InstanceCapabilities.request(IN);
    assertThat(foreground.progress()).isTrue();
    assertThat(plain.progress()).as("the background start's request").isFalse();
    assertThat(foreground.withProgress(false)).isEqualTo(plain);
  }

  @Test
  void theServersOwnRequestsReportNone() {
    assertThat(ExecRequest.of(List.of("true")).progress()).isFalse();
    assertThat(ExecRequest.shell("true").progress()).isFalse();
    assertThat(
            new ExecRequest(
                    List.of("true"),
                    Map.of(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(Duration.ofSeconds(1)))
                .progress())
        .isFalse();
  }

  @Test
  void everyWitherKeepsTheFlag() {
    ExecRequest on = ExecRequest.shell("true").withProgress(true);
    assertThat(on.withArgv(List.of("ls")).progress()).isTrue();
    assertThat(on.withCwd(Optional.of("/")).progress()).isTrue();
    assertThat(on.withUser(Optional.of("0")).progress()).isTrue();
    assertThat(on.withStdin(Optional.of("")).progress()).isTrue();
    assertThat(on.withTimeout(Optional.empty()).progress()).isTrue();
  }
}
