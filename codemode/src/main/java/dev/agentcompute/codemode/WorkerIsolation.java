package dev.agentcompute.codemode;

/**
 * How worker JVMs are confined. A confined worker sees only the Java runtime, its class path and
 * the worker cache (all read-only), a private /tmp, /proc and /dev; it has no network (its own
 * network namespace with only a private loopback), no other files of the host (no credentials
 * directory, Incus socket or key files), runs as {@code nobody} in its own user, PID, IPC and UTS
 * namespaces, and dies with the host. {@link Server#workerIsolation()} says which one is in force.
 */
public enum WorkerIsolation {
  /**
   * bubblewrap when it is installed and can build a jail on this host, else none (with a warning).
   */
  AUTO,
  /** bubblewrap, or the build fails saying why. */
  BUBBLEWRAP,
  /** No confinement: workers run with the host's user, groups, files and network. */
  NONE;

  /** The isolation in force: {@code bubblewrap} or {@code none}. */
  public enum InForce {
    BUBBLEWRAP,
    NONE;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
