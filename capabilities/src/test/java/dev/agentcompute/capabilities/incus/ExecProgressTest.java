package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A long exec's output reported as progress: whole lines, each once, bounded. */
class ExecProgressTest {
  private final List<String> reports = new ArrayList<>();
  private final ExecProgress progress = new ExecProgress(reports::add);

  private void out(String text) {
    progress.output(false, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void completeLinesAreReportedOnceAndAPartialLineWaitsForItsEnd() {
    out("one\ntw");
    progress.flush();
    out("o\nthree\n");
    progress.flush();
    progress.flush();
    assertThat(reports).containsExactly("one", "two\nthree");
  }

  @Test
  void stderrLinesAreNamed() {
    progress.output(true, "boom\n".getBytes(StandardCharsets.UTF_8));
    out("ok\n");
    progress.flush();
    assertThat(reports).containsExactly("ok\nstderr: boom");
  }

  @Test
  void nothingNewReportsNothing() {
    out("no newline yet");
    progress.flush();
    assertThat(reports).isEmpty();
  }

  @Test
  void aFloodKeepsTheNewestLinesAndCountsTheRest() {
    String line = "x".repeat(99) + "\n";
    for (int i = 0; i < 2000; i++) {
      out(line);
    }
    progress.flush();
    assertThat(reports).hasSize(1);
    String report = reports.get(0);
    assertThat(report.length()).isLessThanOrEqualTo(ExecProgress.MAX_MESSAGE_CHARS + 40);
    assertThat(report).matches("(?s).*\\(\\d+ more lines\\)$");
    long shown = report.lines().filter(l -> l.startsWith("x")).count();
    long more = Long.parseLong(report.replaceAll("(?s).*\\((\\d+) more lines\\)$", "$1"));
    assertThat(shown + more).isEqualTo(2000);
  }

  @Test
  void theOomCounterIsReadForTheInstanceItNames() {
    String metrics =
        """
        # TYPE incus_memory_OOM_kills_total counter
        incus_memory_OOM_kills_total{name="web",project="ac-s",type="container"} 0
        incus_memory_OOM_kills_total{name="hog",project="ac-s",type="container"} 3
        """;
    assertThat(IncusProcessDriver.oomKills(metrics, "hog")).isEqualTo(3);
    assertThat(IncusProcessDriver.oomKills(metrics, "web")).isZero();
    assertThat(IncusProcessDriver.oomKills(metrics, "gone")).isZero();
  }
}
