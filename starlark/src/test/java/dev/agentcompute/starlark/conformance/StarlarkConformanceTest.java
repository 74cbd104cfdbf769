package dev.agentcompute.starlark.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * starlark-go's own test files (vendored unmodified under {@code src/test/conformance/starlark-go})
 * run against this interpreter, as starlark-go's {@code *_test.go} run them: split into chunks,
 * each chunk executed, resolved or parsed, and its {@code ###} error expectations checked, error
 * lines included. Both profiles run; every skipped or adapted chunk is printed with its reason,
 * then one line per file and the totals. docs/starlark.md lists the skips and explains them.
 */
class StarlarkConformanceTest {
  static final Path ROOT = Path.of("src/test/conformance/starlark-go");

  @Test
  void codemodeProfile() throws IOException {
    // 186 chunks: 24 need a dialect option or helper CodeMode turns off, 7 run adapted.
    Summary s = runSuite(Profile.CODEMODE);
    assertEquals(List.of(186, 24, 7), List.of(s.chunks, s.skipped, s.adapted), "chunk counts");
  }

  @Test
  void fullProfile() throws IOException {
    Summary s = runSuite(Profile.FULL);
    assertEquals(List.of(186, 0, 0), List.of(s.chunks, s.skipped, s.adapted), "chunk counts");
  }

  private static final class Summary {
    int chunks;
    int passed;
    int skipped;
    int adapted;
    final List<String> failures = new ArrayList<>();
  }

  private static Summary runSuite(Profile profile) throws IOException {
    long started = System.nanoTime();
    Summary total = new Summary();
    Map<String, int[]> perFile = new LinkedHashMap<>(); // passed, failed, skipped, adapted
    StringBuilder report = new StringBuilder();
    for (SuiteFile f : SuiteFile.ALL) {
      int[] counts = perFile.computeIfAbsent(f.path(), k -> new int[4]);
      for (Chunk c : ChunkReader.read(ROOT, f, System.out)) {
        total.chunks++;
        Plan plan = Classifier.classify(c, profile);
        if (plan.status() == Plan.Status.SKIP) {
          counts[2]++;
          total.skipped++;
          report.append("SKIP ").append(c.id()).append(": ").append(plan.reason()).append('\n');
          continue;
        }
        if (plan.status() == Plan.Status.ADAPTED) {
          counts[3]++;
          total.adapted++;
          report.append("ADAPTED ").append(c.id()).append(": ").append(plan.reason()).append('\n');
        }
        ChunkRunner.Result r = ChunkRunner.run(c, plan, profile);
        if (r.ok()) {
          counts[0]++;
          total.passed++;
        } else {
          counts[1]++;
          total.failures.add("FAIL " + c.id() + ": " + r.why());
        }
      }
    }
    total.failures.forEach(x -> report.append(x).append('\n'));
    perFile.forEach(
        (path, n) -> {
          report.append(
              String.format("%s: %d passed, %d failed, %d skipped", path, n[0], n[1], n[2]));
          report.append(n[3] > 0 ? ", " + n[3] + " adapted\n" : "\n");
        });
    report.append(
        String.format(
            "profile=%s chunks=%d run=%d adapted=%d skipped=%d%n%d passed, %d failed (%.1f s)%n",
            profile.id(),
            total.chunks,
            total.chunks - total.skipped,
            total.adapted,
            total.skipped,
            total.passed,
            total.failures.size(),
            (System.nanoTime() - started) / 1e9));
    System.out.print(report);
    if (!total.failures.isEmpty()) {
      fail(total.failures.size() + " chunk(s) failed:\n" + String.join("\n", total.failures));
    }
    return total;
  }
}
