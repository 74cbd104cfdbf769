package dev.agentcompute.capabilities.incus;

import dev.agentcompute.incus.IncusClient;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The incusd of dev/setup (or {@code AGENTCOMPUTE_INCUS_SOCKET}), for every capabilities IT: this
 * package's and {@code it.IncusHarness}.
 */
public final class LocalIncus {
  private LocalIncus() {}

  /** The checkout's root ({@code -Dagentcompute.root}, else the module's parent). */
  public static Path root() {
    return Path.of(System.getProperty("agentcompute.root", "..")).toAbsolutePath().normalize();
  }

  public static Path socket() {
    String env = System.getenv("AGENTCOMPUTE_INCUS_SOCKET");
    Path socket =
        env != null && !env.isEmpty() ? Path.of(env) : root().resolve(".state/incus/unix.socket");
    if (!Files.exists(socket)) {
      throw new IllegalStateException("incusd socket " + socket + " is missing; run dev/setup");
    }
    return socket;
  }

  static IncusClient client() {
    return IncusClient.unixSocket(socket()).build();
  }
}
