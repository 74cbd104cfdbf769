package dev.agentcompute.server;

import java.nio.file.Path;

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
}
