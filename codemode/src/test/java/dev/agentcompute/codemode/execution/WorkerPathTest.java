package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's start generates no classes for pattern switches. Each {@code switch} on types makes
 * the JVM spin a class through {@code SwitchBootstraps} and the class-file API when it first runs,
 * which the AOT cache cannot hold: seven of them cost a worker about 13 ms of its ~75 ms start CPU
 * and ~130 more classes in every worker. The worker path (frames, values, manifest, binding, the
 * engine) uses instanceof chains instead.
 */
@Timeout(60)
class WorkerPathTest {

  @Test
  void aWorkersStartAndFirstExecutionLoadNoSwitchBootstraps(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("classes.txt");
    Process p = ClassLoggingWorker.start(log);
    // One execution with a native call after the warm-up: every frame type and value kind.
    byte[] exec =
        ("{\"type\":\"exec\",\"version\":1,\"source\":\"def main():\\n    return 1\\n\","
                + "\"limits\":{\"max_source_bytes\":65536,\"max_execution_steps\":1000000,"
                + "\"max_native_calls\":100,\"max_value_depth\":32,\"max_value_bytes\":1048576},"
                + "\"manifest\":[]}")
            .getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = p.getOutputStream()) {
      out.write(new byte[] {0, 0, (byte) (exec.length >> 8), (byte) exec.length});
      out.write(exec);
    }
    byte[] answer = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(answer, StandardCharsets.UTF_8)).contains("\"type\":\"final\"");
    List<String> generated =
        Files.readAllLines(log).stream()
            .filter(l -> l.contains("$$TypeSwitch") || l.contains("SwitchBootstraps"))
            .toList();
    assertThat(generated).as("classes loaded for pattern switches").isEmpty();
  }
}
