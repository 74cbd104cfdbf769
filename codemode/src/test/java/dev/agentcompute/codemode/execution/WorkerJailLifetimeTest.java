package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A jail lives exactly as long as the server: bubblewrap's {@code --die-with-parent} follows the
 * thread that forked it, so workers are forked by one long-lived launcher thread. A jail started
 * for a thread that then ends must keep running, and no jail may outlive a SIGKILLed server.
 */
@Timeout(180)
class WorkerJailLifetimeTest {

  private static List<String> jailed(String... command) {
    return WorkerJail.bubblewrap(WorkerJail.bwrap().orElseThrow(), List.of(command), null);
  }

  @Test
  void aJailStartedForAThreadThatEndsKeepsRunning() throws Exception {
    assumeTrue(WorkerJail.bwrap().isPresent(), "bubblewrap is not installed");
    String sleep = Path.of("/usr/bin/sleep").toFile().exists() ? "/usr/bin/sleep" : "/bin/sleep";
    AtomicReference<Process> started = new AtomicReference<>();
    // As a pool refill does: a platform thread that starts one worker and ends.
    Thread starter =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    started.set(WorkerCommand.start(jailed(sleep, "60"), false));
                  } catch (Exception e) {
                    throw new AssertionError(e);
                  }
                });
    starter.join();
    Process jail = started.get();
    try {
      Thread.sleep(1_500);
      assertThat(jail.isAlive()).as("the jail outlived the thread that asked for it").isTrue();
    } finally {
      jail.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void noJailOutlivesAKilledServer() throws Exception {
    assumeTrue(WorkerJail.bwrap().isPresent(), "bubblewrap is not installed");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process server =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                JailedServerMain.class.getName())
            .redirectErrorStream(true)
            .start();
    List<ProcessHandle> jails;
    List<ProcessHandle> inside = List.of();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String line;
      StringBuilder seen = new StringBuilder();
      while ((line = out.readLine()) != null && !line.startsWith("ready")) {
        seen.append(line).append('\n');
      }
      assertThat(line).as("the server never got ready:\n" + seen).isEqualTo("ready 42");
      jails =
          server
              .toHandle()
              .descendants()
              .filter(p -> p.info().command().orElse("").endsWith("bwrap"))
              .toList();
      assertThat(jails).as("the server's jails").hasSizeGreaterThanOrEqualTo(2);
      assertThat(server.toHandle().descendants())
          .as("the stuck jail's process")
          .anyMatch(p -> p.info().command().orElse("").endsWith("sleep"));
      inside = server.toHandle().descendants().toList();
      // SIGKILL: nothing of the server runs again, no shutdown hook, no close.
      server.destroyForcibly();
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (inside.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(inside.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList())
          .as("processes of the killed server's jails still running")
          .isEmpty();
    } finally {
      server.destroyForcibly();
      // A failed run leaves nothing behind either: the jails were re-parented when the server died.
      inside.forEach(ProcessHandle::destroyForcibly);
      server.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    }
  }
}
