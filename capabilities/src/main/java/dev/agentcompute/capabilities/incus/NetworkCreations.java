package dev.agentcompute.capabilities.incus;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The step that creates a network on every member of a cluster, taken by one server at a time.
 *
 * <p>Incus creates networks one at a time per member (a lock in each daemon), and the member that
 * is asked to create a network on the whole cluster keeps its lock while it has every other member
 * create the network, which takes the other member's lock. Two such creations sent at once to two
 * different members (two servers, each dialling its own member) wait for each other for good:
 * neither member creates a network again until its daemon restarts. Within one server the subnet
 * claims already take creations one at a time; across servers the creating step is taken under the
 * default project's {@link ProjectMutex} lock {@code network-create}. A standalone Incus has no
 * such step, and creations there take no lock.
 *
 * <p>The step runs under {@link ProjectMutex.Held#renewing}: the lock's marker is renewed every
 * {@link ProjectMutex#HOLD} while the request is out, so the lock stays held however long the
 * creation takes (a bridge on three members takes about one second), and another server's creation
 * waits for it (up to the mutex's 20 s, then fails as a conflict) instead of taking the lock from a
 * creation that is still running.
 */
final class NetworkCreations {
  static final String KEY = "network-create";
  private static final String PROJECT = "default";

  private final BooleanSupplier clustered;
  private final ProjectMutex mutex;

  NetworkCreations(ClusterMembers members, ProjectMutex mutex) {
    this(members::clustered, mutex);
  }

  /** {@code clustered}: whether the Incus is a cluster (a test plays one on a standalone Incus). */
  NetworkCreations(BooleanSupplier clustered, ProjectMutex mutex) {
    this.clustered = clustered;
    this.mutex = mutex;
  }

  /**
   * Runs {@code create}, the request that creates a network on every member, and returns its
   * result.
   */
  <T> T onEveryMember(Supplier<T> create) {
    if (!clustered.getAsBoolean()) {
      return create.get();
    }
    return mutex.locked(
        PROJECT,
        KEY,
        held -> {
          held.check();
          return held.renewing(create);
        });
  }
}
