package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.WorkerIsolation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host started with a relative class path ({@code java -cp app.jar:lib/*} gives one) still runs
 * its workers: their class path names the same files from wherever the worker runs (a jail's
 * working directory is {@code /}).
 */
@Timeout(120)
class WorkerClassPathTest {

  record Key(String key) {}

  record Value(String key, long n) {}

  private String original;

  @BeforeEach
  void relativeClassPath() {
    original = System.getProperty("java.class.path");
    Path here = Path.of("").toAbsolutePath();
    List<String> relative = new ArrayList<>();
    for (String entry : original.split(File.pathSeparator)) {
      relative.add(here.relativize(Path.of(entry).toAbsolutePath()).toString());
    }
    System.setProperty("java.class.path", String.join(File.pathSeparator, relative));
  }

  @AfterEach
  void restore() {
    System.setProperty("java.class.path", original);
  }

  @Test
  void theWorkersClassPathNamesTheHostsFilesByAbsolutePaths() {
    List<String> cmd = WorkerCommand.build(64L << 20);
    String cp = cmd.get(cmd.indexOf("-cp") + 1);
    List<String> expected = new ArrayList<>();
    for (String entry : original.split(File.pathSeparator)) {
      expected.add(Path.of(entry).toAbsolutePath().normalize().toString());
    }
    assertThat(System.getProperty("java.class.path")).doesNotStartWith("/");
    assertThat(cp.split(File.pathSeparator)).containsExactlyElementsOf(expected);
  }

  /**
   * An empty entry (Surefire's class path ends with one) means the host's working directory to the
   * JVM. Made absolute, the jail would bind that whole directory: with it, {@code WorkerJailTest}'s
   * worker read the credentials and reached the Incus socket under the module's directory.
   */
  @Test
  void anEmptyEntryDoesNotBecomeTheHostsWorkingDirectory() {
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(WorkerCommand.absolute("a.jar" + File.pathSeparator + File.pathSeparator + "b.jar"))
        .isEqualTo(cwd + "/a.jar" + File.pathSeparator + cwd + "/b.jar");
    assertThat(WorkerCommand.absolute("a.jar" + File.pathSeparator)).isEqualTo(cwd + "/a.jar");
  }

  @Test
  void aJailedWorkerServesNativeCallsWhenTheHostsClassPathIsRelative() throws Exception {
    assumeTrue(WorkerJail.bwrap().isPresent(), "bubblewrap is not installed");
    try (Server s =
        CodeMode.builder(
                Options.builder()
                    .policy(Policy.allowRegistered())
                    .workerIsolation(WorkerIsolation.BUBBLEWRAP)
                    .build())
            .register(
                Capability.named("records.get", Key.class, Value.class)
                    .summary("Get one record.")
                    .handler((ctx, subject, in) -> new Value(in.key(), in.key().length())))
            .build()) {
      assertThat(
              s.execute(
                  Context.background(),
                  new Subject("a"),
                  "def main():\n    return [records.get(key='k' + str(i)) for i in range(3)]\n"))
          .isEqualTo(
              List.of(
                  Map.of("key", "k0", "n", 2L),
                  Map.of("key", "k1", "n", 2L),
                  Map.of("key", "k2", "n", 2L)));
    }
  }
}
