package dev.agentcompute.starlark.testmode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conformance runner's test mode (docs/reference/starlark.md#test-mode). */
class TestModeTest {
  private record Result(int rc, String err) {}

  private static Result run(String src, Map<String, String> env) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
    int rc = TestMode.run("/tmp/chunk/t.star", src, TestEnv.from(env), err);
    return new Result(rc, buf.toString(StandardCharsets.UTF_8));
  }

  private static Result exec(String src) {
    return run(src, Map.of("STARLARK_TEST_MODE", "exec"));
  }

  @Test
  void passingAssertionsExitZero() {
    Result r =
        exec(
            "load('assert.star', 'assert', 'freeze')\nassert.eq(1 + 1, 2)\nassert.fails(lambda: 1 // 0, 'division by zero')\n"
                + "assert.contains([1, 2], 2)\nassert.eq(str(freeze), '<built-in function freeze>')\n"
                + "assert.eq(dir(assert), ['contains', 'eq', 'fail', 'fails', 'lt', 'ne', 'true'])\n");
    assertThat(r.err()).isEmpty();
    assertThat(r.rc()).isZero();
  }

  @Test
  void failedAssertionsAreReportedAtTheCallerAndExecutionContinues() {
    Result r = exec("load('assert.star', 'assert')\nassert.eq(1, 2)\nassert.true(False)\n");
    assertThat(r.rc()).isEqualTo(1);
    assertThat(r.err().lines().toList())
        .containsExactly(
            "/tmp/chunk/t.star:2:10: 1 != 2", "/tmp/chunk/t.star:3:12: assertion failed");
  }

  @Test
  void runtimeErrorsPrintPositionMessageAndTraceback() {
    Result r = exec("def f(x):\n  return x + 'a'\nf(1)\n");
    assertThat(r.rc()).isEqualTo(1);
    assertThat(r.err()).startsWith("/tmp/chunk/t.star:2:12: unknown binary op: int + string\n");
    assertThat(r.err())
        .contains("Traceback (most recent call last):", "in f", "Error: unknown binary op");
  }

  @Test
  void anErrorInsideABuiltinEndsTheTracebackWithErrorInThatBuiltin() {
    Result r = exec("x = len(1)\n");
    assertThat(r.err())
        .isEqualTo(
            "/tmp/chunk/t.star:1:8: len: value of type int has no len\n"
                + "Traceback (most recent call last):\n"
                + "  /tmp/chunk/t.star:1:8: in <toplevel>\n"
                + "Error in len: len: value of type int has no len\n");
  }

  @Test
  void loadErrorsNameTheModuleAndSuggest() {
    Result r = exec("load('assert.star', 'asert')\n");
    assertThat(r.err())
        .contains("load: name asert not found in module assert.star (did you mean assert?)");
    assertThat(exec("load('nope.star', 'x')\n").err())
        .contains("cannot load nope.star: no such module");
  }

  @Test
  void resolveModeUsesOnlyThePredeclaredNamesAndReportsAllErrors() {
    Result r =
        run(
            "x = len\ny = M\nz = zz\n",
            Map.of("STARLARK_TEST_MODE", "resolve", "STARLARK_TEST_PREDECLARED", "M,U"));
    assertThat(r.rc()).isEqualTo(1);
    assertThat(r.err().lines().toList())
        .containsExactly(
            "/tmp/chunk/t.star:1:5: undefined: len", "/tmp/chunk/t.star:3:5: undefined: zz");
  }

  @Test
  void parseModeOnlyParses() {
    assertThat(run("x = undefined_name\n", Map.of("STARLARK_TEST_MODE", "parse")).rc()).isZero();
    assertThat(run("f(1, 2\n", Map.of("STARLARK_TEST_MODE", "parse")).err())
        .contains("got end of file, want ')'");
  }

  @Test
  void optionsEnableDialectFeaturesAndStripLoadsPredeclaresAssert() {
    String src = "def f():\n  n = 0\n  while n < 3:\n    n += 1\n  return n\nassert.eq(f(), 3)\n";
    assertThat(
            run(src, Map.of("STARLARK_TEST_MODE", "exec", "STARLARK_TEST_STRIP_LOADS", "1")).err())
        .contains("dialect does not support while loops");
    assertThat(
            run(
                    src,
                    Map.of(
                        "STARLARK_TEST_MODE",
                        "exec",
                        "STARLARK_TEST_STRIP_LOADS",
                        "1",
                        "STARLARK_TEST_OPTIONS",
                        "while"))
                .rc())
        .isZero();
  }

  @Test
  void featuresPredeclareTheGoTestHelpers() {
    String src =
        "load('assert.star', 'assert')\nhf = hasfields()\nhf.x = 1\nassert.eq(hf.x, 1)\n"
            + "s = struct(a = 1)\nassert.eq(str(s), 'struct(a = 1)')\nload('time.star', 'time')\n"
            + "assert.eq(str(time.parse_duration('90m')), '1h30m0s')\n";
    Result r =
        run(
            src,
            Map.of(
                "STARLARK_TEST_MODE", "exec", "STARLARK_TEST_FEATURES", "hasfields,struct,time"));
    assertThat(r.err()).isEmpty();
    assertThat(r.rc()).isZero();
  }

  @Test
  void matchesAcceptsRe2LiteralBraces() {
    assertThat(AssertModule.fromRe2("unmatched '{' in format"))
        .isEqualTo("unmatched '\\{' in format");
    assertThat(AssertModule.fromRe2("a{2,3}b\\{")).isEqualTo("a{2,3}b\\{");
    assertThat(AssertModule.fromRe2("single '}'")).isEqualTo("single '\\}'");
  }
}
