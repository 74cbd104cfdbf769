package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AgentErrorTest {

  @Test
  void replacesNonPrintableRunes() {
    assertThat(AgentError.sanitize("a\nb\tc\u0000d\u00a0e\u200bf")).isEqualTo("a b c d e f");
    assertThat(AgentError.sanitize("ok \uD800 x")).isEqualTo("ok \uFFFD x");
  }

  @Test
  void capsAt256Bytes() {
    String s = AgentError.sanitize("é".repeat(200));
    assertThat(s).endsWith("...");
    assertThat(s.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(256);
    assertThat(s).isEqualTo("é".repeat(126) + "...");
    assertThat(AgentError.sanitize("x".repeat(256))).isEqualTo("x".repeat(256));
    assertThat(AgentError.sanitize("x".repeat(257))).isEqualTo("x".repeat(253) + "...");
  }

  @Test
  void foundThroughWrappersAndEmptyIsBare() {
    Exception wrapped = new Exception("wrapper text", new AgentError("key not found"));
    assertThat(AgentError.find(wrapped).flatMap(AgentError::safeMessage)).contains("key not found");
    assertThat(new AgentError("").safeMessage()).isEmpty();
    assertThat(CodeModeException.withDetail(Failure.CAPABILITY_FAILURE, "x").clientText())
        .isEqualTo("capability failed: x");
    assertThat(CodeModeException.withDetail(Failure.PERMISSION_DENIED, "x").clientText())
        .isEqualTo("permission denied");
  }
}
