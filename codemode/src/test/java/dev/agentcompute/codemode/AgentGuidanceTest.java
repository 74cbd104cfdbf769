package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With agent guidance on, every failure a program causes says where and what to fix, and a failure
 * names the state-changing calls that already ran. The same programs on a server without guidance
 * keep the original's bare texts (the last test), so each assertion here fails with guidance off.
 */
class AgentGuidanceTest {

  static final Subject USER = new Subject("user-1");

  record NameIn(String name) {}

  record NameOut(String name, String note) {}

  record Empty() {}

  record ListOut(java.util.List<String> items) {}

  static Server guided;
  static Server original;

  @BeforeAll
  static void build() throws CodeModeException {
    guided = server(true);
    original = server(false);
  }

  private static Server server(boolean guidance) throws CodeModeException {
    return CodeMode.builder(
            Options.builder()
                .policy(Policy.allowRegistered())
                .agentGuidance(guidance)
                // Generous: a loaded machine's slow worker starts must not read as a time limit.
                .limits(
                    Limits.unset()
                        .withMaxExecutionTime(Duration.ofSeconds(60))
                        .withMaxNativeCalls(5)
                        .withMaxExecutionSteps(100_000))
                .build())
        .register(
            Capability.named("things.create", NameIn.class, NameOut.class)
                .summary("Create a thing.")
                .handler((ctx, s, in) -> new NameOut(in.name(), "")))
        .register(
            Capability.named("things.list", Empty.class, ListOut.class)
                .summary("List things.")
                .hints(Hints.defaults().withReadOnly(true))
                .handler((ctx, s, in) -> new ListOut(java.util.List.of("a"))))
        .register(
            Capability.named("things.exec", NameIn.class, NameOut.class)
                .summary("Fail on purpose.")
                .handler(
                    (ctx, s, in) -> {
                      throw new AgentError("thing " + in.name() + " is broken");
                    }))
        .build();
  }

  @AfterAll
  static void close() {
    guided.close();
    original.close();
  }

  private static String failure(Server server, String src) {
    try {
      server.execute(Context.background(), USER, src);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("execution succeeded: " + src);
  }

  private static String guided(String src) {
    return failure(guided, src);
  }

  @Test
  void unknownCapabilityNamesTheNearestOne() {
    assertThat(guided("def main():\n    return things.run(name='a')\n"))
        .isEqualTo(
            "invalid program: 2:18: things has no attribute \"run\" (did you mean things.exec?)");
    assertThat(guided("def main():\n    return things.zap(name='a')\n"))
        .isEqualTo(
            "invalid program: 2:18: things has no attribute \"zap\" (things has: create,"
                + " exec, list)");
  }

  @Test
  void dictAttributeAndMissingKeySayHowToRead() {
    assertThat(guided("def main():\n    r = things.list()\n    return r.stdout\n"))
        .isEqualTo(
            "invalid program: 3:13: dict has no attribute \"stdout\": results are dicts, read a"
                + " field with r[\"stdout\"]");
    assertThat(guided("def main():\n    r = things.list()\n    return r['sandboxes']\n"))
        .isEqualTo("invalid program: 3:13: key \"sandboxes\" not in dict (keys: items)");
  }

  @Test
  void divisionByZeroHasItsLine() {
    assertThat(guided("def main():\n    x = 0\n    return 1 // x\n"))
        .isEqualTo(
            "invalid program: 3:14: floored division by zero: check the divisor before dividing");
  }

  @Test
  void entryPointMistakes() {
    assertThat(guided("x = 1\n"))
        .isEqualTo(
            "invalid program: main is missing: define def main(): with no parameters and put the"
                + " calls inside it");
    assertThat(guided("def main(x):\n    return x\n"))
        .isEqualTo(
            "invalid program: main must take no parameters: define def main(): (nothing is passed"
                + " to it)");
    assertThat(guided("r = things.list()\ndef main():\n    return r\n"))
        .isEqualTo(
            "invalid program: 1:16: things.list called outside main: capabilities run only inside"
                + " def main():; move the call there");
  }

  @Test
  void unsupportedSyntaxIsNamed() {
    assertThat(guided("import json\ndef main():\n    return 1\n"))
        .isEqualTo(
            "invalid program: 1:1: import is not available: json.* and math.* are builtins, use"
                + " them without import; capabilities are called by name (search_api finds them)");
    assertThat(guided("def main():\n    x = 1\n    return f\"{x}\"\n"))
        .startsWith("invalid program: 3:12: f-strings are not available: use \"%s\" % x");
    assertThat(guided("def main():\n    while True:\n        pass\n"))
        .isEqualTo(
            "invalid program: 2:5: while is not available: use for i in range(n): with a bound");
  }

  @Test
  void resourceLimitsNameTheLimitAndTheLine() {
    assertThat(guided("def main():\n    for i in range(10000000):\n        pass\n"))
        .isEqualTo(
            "resource limit exceeded: execution step limit (100000 steps) exceeded at line 2: a"
                + " loop runs too long; loop fewer times");
    assertThat(guided("def main():\n    for i in range(9):\n        things.list()\n"))
        .isEqualTo(
            "resource limit exceeded: native call limit (5 calls per execution) exceeded at line"
                + " 3: make fewer capability calls, or split the work over several executions");
  }

  @Test
  void argumentMistakesPointAtTheCall() {
    assertThat(guided("def main():\n    return things.create(nme='a')\n"))
        .isEqualTo(
            "invalid capability arguments: 2:25: things.create: unknown argument \"nme\""
                + " (describe_api lists its parameters)");
  }

  @Test
  void aFailureNamesTheStateChangingCallsThatRan() {
    assertThat(
            guided(
                "def main():\n    things.create(name='calm-fox')\n    things.list()\n"
                    + "    things.create(name='web')\n    things.exec(name='db')\n"))
        .isEqualTo(
            "capability failed: thing db is broken; before this: things.create -> \"calm-fox\","
                + " things.create -> \"web\"");
    assertThat(guided("def main():\n    things.create(name='a')\n    return 1 // 0\n"))
        .endsWith("; before this: things.create -> \"a\"");
  }

  @Test
  void theListOfCallsThatRanIsBounded() {
    String name = "n".repeat(60);
    String text =
        guided(
            "def main():\n    for i in range(5):\n        things.create(name='"
                + name
                + "%d' % i)\n    return 1 // 0\n");
    assertThat(text).endsWith(", and 2 more");
    String ran = text.substring(text.indexOf("before this: ") + "before this: ".length());
    assertThat(ran.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(256 + 20);
  }

  @Test
  void explanationsAreBounded() {
    String key = "k".repeat(2000);
    String text = guided("def main():\n    return {}['" + key + "']\n");
    assertThat(text).endsWith("...");
    assertThat(text.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo("invalid program: ".length() + 512);
  }

  private static String executeDescription(Server server) {
    return dev.agentcompute.codemode.mcp.CodeModeMcp.tools(
            server, dev.agentcompute.codemode.mcp.InvocationResolver.staticSubject(USER))
        .stream()
        .filter(t -> t.tool().name().equals("execute"))
        .findFirst()
        .orElseThrow()
        .tool()
        .description();
  }

  @Test
  void executeSaysHowToCallAndThatFailuresStay() {
    String guidedText = executeDescription(guided);
    String originalText = executeDescription(original);
    assertThat(guidedText)
        .startsWith(originalText)
        .contains("keyword arguments only")
        .contains("r[\"key\"]")
        .contains("A failure is not rolled back");
    assertThat(guidedText.substring(guidedText.indexOf("def main():")).lines().limit(4))
        .allMatch(l -> l.startsWith("def main():") || l.startsWith("    "));
    assertThat(originalText).doesNotContain("rolled back");
  }

  @Test
  void withoutGuidanceTheOriginalTextsStay() {
    assertThat(failure(original, "def main():\n    return things.run(name='a')\n"))
        .isEqualTo("invalid program");
    assertThat(failure(original, "x = 1\n")).isEqualTo("invalid program");
    assertThat(failure(original, "def main():\n    for i in range(10000000):\n        pass\n"))
        .isEqualTo("resource limit exceeded");
    assertThat(
            failure(
                original,
                "def main():\n    things.create(name='calm-fox')\n    things.exec(name='db')\n"))
        .isEqualTo("capability failed: thing db is broken");
    assertThat(failure(original, "import json\ndef main():\n    return 1\n"))
        .startsWith("invalid program: <codemode>:1:1: got illegal token");
  }
}
