package dev.agentcompute.capabilities.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backend failures stay sanitised: the agent sees a backend's safe sentence (Incus did not answer)
 * and nothing of the logged message; without one, a bare {@code capability failed}.
 */
class BackendFailureTextTest {

  record In(boolean silent) {}

  record Out(String name) {}

  private static Server server;

  @BeforeAll
  static void build() throws Exception {
    CapabilityDefinition<In, Out> failing =
        new CapabilityDefinition<>(
            "sandbox.list",
            "Fail like a backend.",
            List.of(),
            In.class,
            Out.class,
            (subject, in) -> {
              throw in.silent()
                  ? new BackendException(
                      BackendException.Kind.UNAVAILABLE,
                      "GET /1.0/projects: no answer within PT30S (secret internals)",
                      null,
                      "Incus did not answer within 30 s; retry later")
                  : new BackendException(
                      BackendException.Kind.FAILED, "internal detail /var/lib/incus", null);
            });
    server =
        CodeModeRegistration.register(
                CodeMode.builder(
                    Options.builder()
                        .authorizer((ctx, request) -> {})
                        // Generous: slow worker starts on a loaded machine must not hit a deadline.
                        .limits(
                            dev.agentcompute.codemode.Limits.unset()
                                .withMaxExecutionTime(java.time.Duration.ofSeconds(60)))
                        .build()),
                List.of(failing))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  private static String failure(String src) {
    try {
      server.execute(Context.background(), new Subject("local"), src);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("succeeded");
  }

  @Test
  void aSilentBackendSaysSoWithoutInternals() {
    assertThat(failure("def main():\n    return sandbox.list(silent=True)\n"))
        .isEqualTo("capability failed: Incus did not answer within 30 s; retry later");
  }

  @Test
  void otherBackendFailuresStayBare() {
    assertThat(failure("def main():\n    return sandbox.list(silent=False)\n"))
        .isEqualTo("capability failed");
    assertThatThrownBy(() -> server.execute(Context.background(), new Subject("local"), "x"))
        .isInstanceOf(CodeModeException.class);
  }
}
