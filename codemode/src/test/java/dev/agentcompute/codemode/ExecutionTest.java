package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExecutionTest {

  static final Subject USER = new Subject("user-1");
  static final List<Map<String, Object>> AUTHORIZED = new CopyOnWriteArrayList<>();
  static Server server;

  @BeforeAll
  static void build() throws CodeModeException {
    Authorizer authorizer =
        (ctx, req) -> {
          AUTHORIZED.add(req.arguments());
          if ("forbidden".equals(req.arguments().get("key"))) {
            throw new AccessDenied();
          }
        };
    server =
        CodeMode.builder(
                Options.builder()
                    .authorizer(authorizer)
                    // Nothing here ends by the deadline; a generous one keeps a loaded machine's
                    // slow worker starts from reading as resource limits.
                    .limits(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60)))
                    .build())
            .register(Fixtures.lookup())
            .register(Fixtures.status())
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  private static Object run(String src) throws CodeModeException {
    return server.execute(Context.background(), USER, src);
  }

  private static String failure(String src) {
    try {
      run(src);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("execution succeeded");
  }

  @Test
  void returnsMainsValueAndCallsCapabilities() throws CodeModeException {
    java.util.List<Object> expected = new java.util.ArrayList<>(List.of(1L, 2.5, "x"));
    expected.add(null);
    expected.add(true);
    expected.add(Map.of("a", List.of(1L), "b", 1L));
    assertThat(run("def main():\n    return [1, 2.5, 'x', None, True, {'b': 1, 'a': (1,)}]\n"))
        .isEqualTo(expected);
    Object v =
        run(
            "def main():\n    r = records.lookup(key='alpha', limit=2)\n    return [r, health.status()]\n");
    assertThat(v).isEqualTo(List.of(Map.of("count", 2L, "key", "alpha"), Map.of("state", "ok")));
    assertThat(AUTHORIZED).contains(Map.of("key", "alpha", "limit", 2L));
  }

  @Test
  void programErrors() {
    assertThat(failure("def main(:\n")).startsWith("invalid program: <codemode>:1:");
    assertThat(failure("x = 1\n")).isEqualTo("invalid program");
    assertThat(failure("def main(x):\n    return x\n")).isEqualTo("invalid program");
    assertThat(failure("def main():\n    return fail('boom')\n")).isEqualTo("invalid program");
    assertThat(failure("x = health.status()\ndef main():\n    return x\n"))
        .isEqualTo("invalid program");
    assertThat(failure("def main():\n    return records.lookup(keu='a')\n"))
        .isEqualTo("invalid capability arguments: unknown argument \"keu\"");
    assertThat(failure("def main():\n    return records.lookup('a')\n"))
        .isEqualTo("invalid capability arguments: positional arguments are not accepted");
    assertThat(failure("def main():\n    return records.lookup(key=1)\n"))
        .isEqualTo("invalid capability arguments: argument \"key\" must be a string");
    assertThat(failure("def main():\n    return records.lookup(key='forbidden')\n"))
        .isEqualTo("permission denied");
    assertThat(failure("def main():\n    return main\n")).isEqualTo("invalid program");
  }

  @Test
  void limitsAndPreconditions() {
    assertThat(failure("def main():\n    for i in range(100000000):\n        pass\n"))
        .isEqualTo("resource limit exceeded");
    assertThatThrownBy(
            () -> server.execute(Context.background(), new Subject(""), "def main(): pass"))
        .hasMessage("unauthenticated");
    assertThatThrownBy(() -> server.execute(Context.background(), USER, "#".repeat(70_000)))
        .hasMessage("resource limit exceeded");
    assertThat(failure("def main():\n    return [health.status() for i in range(101)]\n"))
        .isEqualTo("resource limit exceeded");
  }
}
