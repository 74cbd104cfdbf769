package dev.agentcompute.rego.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * OPA's compliance cases (vendored unmodified under {@code src/test/conformance/opa}) against this
 * evaluator, through the runner {@code dev/rego --test} uses: one line per failing or skipped case
 * with its reason, then the totals. docs/rego.md lists any skip and why.
 */
class RegoComplianceTest {
  static final Path CASES = Path.of("src/test/conformance/opa/testdata");

  @Test
  void everyCasePasses() throws IOException {
    long started = System.nanoTime();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    Main.Tally t;
    try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      t = Main.runAll(CASES, out);
    }
    String report = buf.toString(StandardCharsets.UTF_8);
    System.out.print(report);
    System.out.printf("(%.1f s)%n", (System.nanoTime() - started) / 1e9);
    // 223 files, 326 cases: a runner that found fewer would pass by reading nothing.
    assertEquals(new Main.Tally(326, 0, 0), t, report);
  }
}
