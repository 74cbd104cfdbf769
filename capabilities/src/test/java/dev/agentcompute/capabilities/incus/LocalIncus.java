package dev.agentcompute.capabilities.incus;

import dev.agentcompute.incus.IncusClient;
import java.nio.file.Files;
import java.nio.file.Path;

/** The incusd of dev/setup (or AGENTCOMPUTE_INCUS_SOCKET), for this package's ITs. */
final class LocalIncus {
  private LocalIncus() {}

  static IncusClient client() {
    String env = System.getenv("AGENTCOMPUTE_INCUS_SOCKET");
    Path root = Path.of(System.getProperty("agentcompute.root", "..")).toAbsolutePath().normalize();
    Path socket =
        env != null && !env.isEmpty() ? Path.of(env) : root.resolve(".state/incus/unix.socket");
    if (!Files.exists(socket)) {
      throw new IllegalStateException("incusd socket " + socket + " is missing; run dev/setup");
    }
    return IncusClient.unixSocket(socket).build();
  }
}
