package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentcompute.codemode.CodeMode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker in its bubblewrap jail cannot read the server's credentials directory, reach the Incus
 * socket or the network, and runs as nobody (docs/security.md). The same hook run without the jail
 * reaches all of them, which shows the test detects access.
 */
@Timeout(120)
class WorkerJailTest {
  private Path base;
  private Path credentials;
  private Path socket;
  private ServerSocketChannel incus;
  private ServerSocket tcp;

  @BeforeEach
  void host() throws IOException {
    // Under target/, which no worker path binds (only target/classes and target/test-classes).
    base = Files.createDirectories(Path.of("target", "jail-test")).toAbsolutePath();
    credentials = Files.createDirectories(base.resolve("credentials"));
    Files.writeString(credentials.resolve("auth-tokens.json"), "{\"alice\":\"secret\"}");
    socket = base.resolve("incus.socket");
    Files.deleteIfExists(socket);
    incus = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    incus.bind(UnixDomainSocketAddress.of(socket));
    tcp = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void close() throws IOException {
    incus.close();
    tcp.close();
    Files.deleteIfExists(socket);
  }

  private List<String> attempts() {
    return List.of(
        "read=" + credentials,
        "read=" + credentials.resolve("auth-tokens.json"),
        "unix=" + socket,
        "tcp=127.0.0.1:" + tcp.getLocalPort(),
        "groups");
  }

  /** The hook's lines when started with the worker's command, confined or not. */
  private static List<String> run(List<String> command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().put(CodeMode.WORKER_MARKER, "1");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out.lines().toList();
  }

  /** The worker's command line with the hook as its main class. */
  private List<String> hookCommand() {
    List<String> cmd = new ArrayList<>(WorkerCommand.build(64L << 20));
    cmd.removeLast();
    cmd.add(JailProbeMain.class.getName());
    cmd.addAll(attempts());
    return cmd;
  }

  @Test
  void aJailedWorkerReachesNoCredentialsNoIncusSocketNoNetworkAndHasNoGroups() throws Exception {
    assumeTrue(WorkerJail.bwrap().isPresent(), "bubblewrap is not installed");
    List<String> command = hookCommand();
    // The host's real Incus socket too, when this machine has one (dev/setup's or the system's).
    for (String dir : new String[] {System.getenv("INCUS_DIR"), "/var/lib/incus"}) {
      if (dir != null && Files.exists(Path.of(dir, "unix.socket"))) {
        command.add("unix=" + Path.of(dir, "unix.socket").toAbsolutePath());
      }
    }
    List<String> lines =
        run(
            WorkerJail.bubblewrap(
                WorkerJail.bwrap().get(), command, WorkerCommand.cacheDirectory()));

    assertThat(lines).as(String.join("\n", lines)).hasSizeGreaterThanOrEqualTo(6);
    assertThat(lines)
        .filteredOn(l -> !l.startsWith("groups"))
        .allSatisfy(l -> assertThat(l).contains(" refused "));
    assertThat(lines).anyMatch(l -> l.startsWith("groups Uid: 65534"));
    assertThat(lines)
        .filteredOn(l -> l.startsWith("groups Groups:"))
        .allSatisfy(
            l -> assertThat(l.substring("groups Groups:".length()).strip()).isIn("", "65534"));
  }

  @Test
  void theSameHookWithoutTheJailReachesThemAll() throws Exception {
    List<String> lines = run(hookCommand());

    assertThat(lines)
        .as(String.join("\n", lines))
        .filteredOn(l -> !l.startsWith("groups"))
        .hasSize(4)
        .allSatisfy(l -> assertThat(l).endsWith(" ok"));
  }

  @Test
  void aServerAskingForBubblewrapRunsItsExecutionsInTheJail() throws Exception {
    assumeTrue(WorkerJail.bwrap().isPresent(), "bubblewrap is not installed");
    try (dev.agentcompute.codemode.Server s =
        CodeMode.builder(
                dev.agentcompute.codemode.Options.builder()
                    .policy(dev.agentcompute.codemode.authz.Policy.allowRegistered())
                    .workerIsolation(dev.agentcompute.codemode.WorkerIsolation.BUBBLEWRAP)
                    .build())
            .build()) {
      assertThat(s.workerIsolation())
          .isEqualTo(dev.agentcompute.codemode.WorkerIsolation.InForce.BUBBLEWRAP);
      assertThat(s.workerCommand().getFirst()).endsWith("bwrap");
      assertThat(
              s.execute(
                  dev.agentcompute.codemode.Context.background(),
                  new dev.agentcompute.codemode.authz.Subject("a"),
                  "def main():\n    return 6 * 7\n"))
          .isEqualTo(42L);
    }
  }
}
