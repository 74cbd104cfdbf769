package dev.agentcompute.capabilities.adapter.instance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.ExecUser;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExecArgumentsTest {
  @Test
  void envIsNewlineSeparatedKeyValueWithCrlfAndBlankLinesTolerated() {
    assertThat(ExecArguments.env("A=1\r\n\nB=x=y\n"))
        .containsExactly(Map.entry("A", "1"), Map.entry("B", "x=y"));
    assertThat(ExecArguments.env(null)).isEmpty();
    assertThatThrownBy(() -> ExecArguments.env("A=1\nnoequals"))
        .hasMessage(
            "env entry \"noequals\" must be KEY=VALUE: env is one KEY=VALUE per line, e.g."
                + " \"A=1\\nB=2\"");
    assertThatThrownBy(() -> ExecArguments.env("=v"))
        .hasMessage(
            "env entry \"=v\" must be KEY=VALUE: env is one KEY=VALUE per line, e.g. \"A=1\\nB=2\"");
  }

  @Test
  void severalVariablesOnOneLineAreRefusedWithTheFormat() {
    assertThatThrownBy(() -> ExecArguments.env("A=1,B=2"))
        .hasMessage(
            "env entry \"A=1,B=2\" holds several variables on one line: env is one KEY=VALUE per"
                + " line, e.g. \"A=1\\nB=2\"");
    assertThatThrownBy(() -> ExecArguments.env("A=1; B=2")).hasMessageContaining("one line");
    assertThat(ExecArguments.env("LIST=a,b\nURL=http://x/?q=1"))
        .containsExactly(Map.entry("LIST", "a,b"), Map.entry("URL", "http://x/?q=1"));
  }

  @Test
  void timeoutBounds() {
    assertThat(ExecArguments.timeout(0)).isEmpty();
    assertThat(ExecArguments.timeout(5)).contains(Duration.ofSeconds(5));
    assertThatThrownBy(() -> ExecArguments.timeout(-1))
        .hasMessage("timeout_seconds must be non-negative");
    assertThatThrownBy(() -> ExecArguments.timeout(9_223_372_037L))
        .hasMessage("timeout_seconds is too large");
  }

  @Test
  void userIsRootOrANumericUid() {
    assertThat(ExecUser.parse(Optional.empty())).isEmpty();
    assertThat(ExecUser.parse(Optional.of("root"))).hasValue(0);
    assertThat(ExecUser.parse(Optional.of("1000"))).hasValue(1000);
    assertThatThrownBy(() -> ExecUser.parse(Optional.of("alice")))
        .hasMessage("user must be a numeric UID");
    assertThatThrownBy(() -> ExecUser.parse(Optional.of("4294967296")))
        .hasMessage("user must be a numeric UID");
  }
}
