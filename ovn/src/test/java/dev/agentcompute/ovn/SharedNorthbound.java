package dev.agentcompute.ovn;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the shared OVN_Northbound ovsdb-server that dev/setup runs (never restarted by tests). */
final class SharedNorthbound {
  private SharedNorthbound() {}

  static OvsdbEndpoint tcp() {
    String spec = System.getenv("AGENTCOMPUTE_OVN_NB_TCP");
    return OvsdbEndpoint.parse(spec == null || spec.isBlank() ? "tcp:127.0.0.1:6641" : spec);
  }

  static OvsdbEndpoint unix() {
    String socket = System.getenv("AGENTCOMPUTE_OVN_NB_UNIX");
    Path path;
    if (socket != null && !socket.isBlank()) {
      path = Path.of(socket);
    } else {
      String root = System.getProperty("agentcompute.root");
      if (root == null) {
        throw new IllegalStateException(
            "set AGENTCOMPUTE_OVN_NB_UNIX or -Dagentcompute.root (run dev/setup first)");
      }
      path = Path.of(root, ".state", "ovn", "ovnnb_db.sock");
    }
    if (!Files.exists(path)) {
      throw new IllegalStateException("no OVN northbound socket at " + path + ": run dev/setup");
    }
    return OvsdbEndpoint.unix(path);
  }

  /** A name no other test or helper uses. */
  static String uniqueName(String prefix) {
    return prefix
        + "-"
        + Long.toHexString(System.nanoTime())
        + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 16));
  }
}
