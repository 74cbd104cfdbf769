package dev.agentcompute.capabilities.incus;

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
 * <p>The lock holds while the step returns within {@link ProjectMutex#STALE} minus {@link
 * ProjectMutex#HOLD} (six seconds) of its start; a bridge on three members takes about one.
 */
final class NetworkCreations {
  static final String KEY = "network-create";
  private static final String PROJECT = "default";

  private final ClusterMembers members;
  private final ProjectMutex mutex;

  NetworkCreations(ClusterMembers members, ProjectMutex mutex) {
    this.members = members;
    this.mutex = mutex;
  }

  /**
   * Runs {@code create}, the request that creates a network on every member, and returns its
   * result.
   */
  <T> T onEveryMember(Supplier<T> create) {
    if (!members.clustered()) {
      return create.get();
    }
    return mutex.locked(
        PROJECT,
        KEY,
        held -> {
          held.check();
          return create.get();
        });
  }
}
