package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.CodeModeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeTest {

  static final String ADVICE =
      "; workers run `java -cp <the host's java.class.path> dev.agentcompute.codemode.worker.WorkerMain`"
          + " (with the host's --module-path, if any), so start the host with java -jar, -cp or"
          + " --module-path over plain jars that hold codemode, starlark and their dependencies,"
          + " not with mvn exec:java or from a jar nested in another jar";

  @Test
  void theRealWorkerAnswersTheProbe() throws CodeModeException {
    Probe.run(WorkerCommand.build(64L << 20));
  }

  @Test
  void aMissingWorkerEntryIsDiagnosedWithItsStderr() {
    List<String> cmd = new ArrayList<>(WorkerCommand.build(64L << 20));
    cmd.set(cmd.size() - 1, "dev.agentcompute.NoSuchMain");
    assertThatThrownBy(() -> Probe.run(cmd))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e ->
                assertThat(e.getMessage())
                    .startsWith(
                        "invalid registration: the worker could not start: child exited with status 1"
                            + ADVICE
                            + "; worker stderr: \"")
                    .contains("dev.agentcompute.NoSuchMain"));
  }

  @Test
  void aClassPathWithoutWorkerMainIsNamed(@TempDir Path empty) {
    // What `mvn exec:java` gives a worker: a class path (Maven's launcher jar) without codemode.
    List<String> cmd = new ArrayList<>(WorkerCommand.build(64L << 20));
    int cp = cmd.indexOf("-cp");
    cmd.set(cp + 1, empty.toString());
    cmd.removeIf(a -> a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-XX:AOTCache="));
    assertThatThrownBy(() -> Probe.run(cmd))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e ->
                assertThat(e.getMessage())
                    .startsWith(
                        "invalid registration: the worker could not start: WorkerMain is not loadable"
                            + " from java.class.path="
                            + empty
                            + ADVICE
                            + "; worker stderr: \"")
                    .doesNotContain("ServeWorkerAndExit"));
  }

  @Test
  void silentAndChattyChildrenAreRejected() {
    assertThatThrownBy(() -> Probe.run(List.of("/bin/true")))
        .hasMessage(
            "invalid registration: the worker could not start: stdout closed before probe_ack"
                + ADVICE);
    assertThatThrownBy(() -> Probe.run(List.of("/bin/echo", "hello world, this is not a frame")))
        .hasMessage(
            "invalid registration: the worker could not start: stdout contained non-protocol data before probe_ack"
                + ADVICE);
    assertThatThrownBy(() -> Probe.run(List.of("/bin/sleep", "30")))
        .hasMessageStartingWith(
            "invalid registration: the worker could not start: deadline exceeded after 5s");
    assertThatThrownBy(() -> Probe.run(List.of("/nonexistent/java")))
        .hasMessageStartingWith(
            "invalid registration: the worker could not start: could not run /nonexistent/java:");
  }

  @Test
  void stderrExcerptIsQuotedAndTruncated() {
    assertThat(Probe.stderrSuffix("boom\n".getBytes())).isEqualTo("; worker stderr: \"boom\"");
    assertThat(Probe.stderrSuffix(new byte[0])).isEmpty();
    assertThat(Probe.stderrSuffix("x".repeat(5000).getBytes()))
        .startsWith("; worker stderr (truncated to 4096 bytes): \"xxx")
        .hasSize(43 + 4096 + 2);
  }

  private static List<String> answering(String printf) {
    // Reads the 32-byte probe frame first, so the host's write never meets a closed pipe.
    return List.of("/bin/sh", "-c", "head -c 32 >/dev/null; " + printf);
  }

  @Test
  void malformedAcksVersionMismatchesTrailingDataAndExitStatusesAreNamed()
      throws CodeModeException {
    assertThatThrownBy(
            () ->
                Probe.run(
                    answering(
                        "printf '\\000\\000\\000\\040{\"type\":\"probe_ack\",\"version\":2}'")))
        .hasMessage(
            "invalid registration: the worker could not start: protocol version mismatch: child reported 2, "
                + "parent requires 1"
                + ADVICE);
    assertThatThrownBy(
            () ->
                Probe.run(
                    answering(
                        "printf '\\000\\000\\000\\040{\"type\":\"probe_ack\",\"versio\":11}'")))
        .hasMessage(
            "invalid registration: the worker could not start: received malformed probe_ack"
                + ADVICE);
    assertThatThrownBy(
            () ->
                Probe.run(
                    answering(
                        "printf '\\000\\000\\000\\040{\"type\":\"probe_ack\",\"version\":1}x'")))
        .hasMessage(
            "invalid registration: the worker could not start: received data after probe_ack"
                + ADVICE);
    assertThatThrownBy(() -> Probe.run(answering("echo oops >&2; exit 7")))
        .hasMessage(
            "invalid registration: the worker could not start: child exited with status 7"
                + ADVICE
                + "; worker stderr: \"oops\"");
    Probe.run(answering("printf '\\000\\000\\000\\040{\"type\":\"probe_ack\",\"version\":1}'"));
  }
}
