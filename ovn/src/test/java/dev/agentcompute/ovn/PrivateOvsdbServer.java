package dev.agentcompute.ovn;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away ovsdb-server with the OVN_Northbound schema, run as a child process on a free
 * 127.0.0.1 port and a Unix socket in its own temp dir; tests may stop and restart it at will.
 */
final class PrivateOvsdbServer implements AutoCloseable {
  private static final Path SCHEMA = Path.of("/usr/share/ovn/ovn-nb.ovsschema");

  private final Path dir;
  private final int port;
  private final List<String> extraArgs;
  private final String remote;
  private Process process;

  private PrivateOvsdbServer(Path dir, int port, String remote, List<String> extraArgs) {
    this.dir = dir;
    this.port = port;
    this.remote = remote;
    this.extraArgs = extraArgs;
  }

  /** Plain TCP ({@code ptcp}) plus a Unix socket. */
  static PrivateOvsdbServer startTcp() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("ovsdb-it-");
    int port = freePort();
    PrivateOvsdbServer server =
        new PrivateOvsdbServer(dir, port, "ptcp:" + port + ":127.0.0.1", List.of());
    server.createDb();
    server.start();
    return server;
  }

  /** TLS ({@code pssl}) with the given server key, certificate and CA (for client certificates). */
  static PrivateOvsdbServer startTls(Path dir, Path key, Path cert, Path ca)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int port = freePort();
    PrivateOvsdbServer server =
        new PrivateOvsdbServer(
            dir,
            port,
            "pssl:" + port + ":127.0.0.1",
            List.of("--private-key=" + key, "--certificate=" + cert, "--ca-cert=" + ca));
    server.createDb();
    server.start();
    return server;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private void createDb() throws IOException, InterruptedException {
    run(List.of("ovsdb-tool", "create", dir.resolve("nb.db").toString(), SCHEMA.toString()));
  }

  int port() {
    return port;
  }

  Path socket() {
    return dir.resolve("nb.sock");
  }

  Path dir() {
    return dir;
  }

  OvsdbEndpoint tcpEndpoint() {
    return OvsdbEndpoint.tcp("127.0.0.1", port);
  }

  /** Starts (or restarts) the server on the same port, socket and database file. */
  void start() throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ovsdb-server",
                dir.resolve("nb.db").toString(),
                "--remote=" + remote,
                "--remote=punix:" + socket(),
                "--pidfile=" + dir.resolve("ovsdb-server.pid"),
                "--unixctl=" + dir.resolve("ovsdb-server.ctl"),
                "--log-file=" + dir.resolve("ovsdb-server.log")));
    command.addAll(extraArgs);
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()))
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!listening(remote.startsWith("ptcp:"))) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "private ovsdb-server did not start; see "
                + dir.resolve("ovsdb-server.log")
                + ": "
                + (Files.exists(dir.resolve("stdout.log"))
                    ? Files.readString(dir.resolve("stdout.log"))
                    : ""));
      }
      Thread.sleep(20);
    }
  }

  private boolean listening(boolean probeTcp) {
    if (!probeTcp) {
      return Files.exists(socket()); // a TLS port would log a failed handshake for a bare probe
    }
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
      return Files.exists(socket());
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills the server hard (SIGKILL), as a crash would. */
  void kill() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  static void run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
