package dev.agentcompute.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Where the server's integration tests find the checkout and the incusd that dev/setup started. */
public final class LocalStack {
  private LocalStack() {}

  /** The checkout's root (Failsafe sets {@code agentcompute.root}). */
  public static Path root() {
    return Path.of(System.getProperty("agentcompute.root", "..")).toAbsolutePath().normalize();
  }

  /** {@code AGENTCOMPUTE_INCUS_SOCKET} when set, else dev/setup's private incusd. */
  public static Path incusSocket() {
    String env = System.getenv("AGENTCOMPUTE_INCUS_SOCKET");
    return env != null && !env.isEmpty()
        ? Path.of(env)
        : root().resolve(".state/incus/unix.socket");
  }

  /**
   * The server jar Maven packaged (Failsafe runs after {@code package}): the one the ITs that start
   * a real server process run.
   */
  public static Path serverJar() throws IOException {
    try (Stream<Path> files = Files.list(root().resolve("server/target"))) {
      List<Path> jars =
          files
              .filter(
                  p -> {
                    String n = p.getFileName().toString();
                    return n.matches("server-.*\\.jar")
                        && !n.contains("sources")
                        && !n.contains("tests");
                  })
              .toList();
      if (jars.size() != 1) {
        throw new IllegalStateException(
            "expected one packaged server jar in server/target, found "
                + jars
                + ": run `mvn -pl server -am package -DskipTests` first");
      }
      return jars.getFirst();
    }
  }
}
