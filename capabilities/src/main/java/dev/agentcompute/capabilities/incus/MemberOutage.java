package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Instance;
import java.util.Optional;

/**
 * What an agent is told when an instance's cluster member does not answer: the member, by name, and
 * that the rest keeps working. incus-client has already turned Incus's texts for this ("Missing
 * event connection with target cluster member", "Server isn't ready yet", a refused connection)
 * into {@link IncusException.Unavailable}; this only finds which member it is. The instance list
 * still answers from the cluster database while a member is down (those instances have status
 * {@code Error} and their {@code location}), so it names the member.
 */
final class MemberOutage {
  private MemberOutage() {}

  /**
   * The failure to report for {@code instance} of the project {@code project} after {@code cause};
   * {@code cause} itself when the daemon is standalone or the instance's member cannot be found.
   */
  static RuntimeException of(
      IncusClient project,
      ClusterMembers members,
      String instance,
      IncusException.Unavailable cause) {
    try {
      if (!members.clustered()) {
        return cause;
      }
      Optional<String> member =
          project.instances().list().stream()
              .filter(i -> i.name().equals(instance))
              .map(Instance::location)
              .filter(l -> l != null && !l.isEmpty())
              .findFirst();
      if (member.isEmpty()) {
        return cause;
      }
      String status = members.status(member.get()).orElse("not answering");
      return new BackendException(
          Kind.UNAVAILABLE,
          cause.getMessage(),
          cause,
          memberUnavailable(instance, member.get(), status));
    } catch (IncusException e) {
      cause.addSuppressed(e);
      return cause;
    }
  }

  static String memberUnavailable(String instance, String member, String status) {
    return "instance \""
        + instance
        + "\" is on cluster member \""
        + member
        + "\", which is unavailable (status "
        + status
        + "); retry when the member is back (instances on other members keep working)";
  }
}
