package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.execution.Access;

/** Asks a {@link ResourcePolicy} and maps its answer: allow, deny, or fail closed. */
final class ResourceAccess {

  private ResourceAccess() {}

  interface Question {
    void ask() throws Exception;
  }

  static boolean discover(
      ResourcePolicy policy, Context ctx, Subject subject, ResourceDescription description)
      throws CodeModeException {
    return allowed(() -> policy.discover(ctx, subject, description));
  }

  static boolean visible(ResourcePolicy policy, Context ctx, Subject subject, ResourceItem item)
      throws CodeModeException {
    return allowed(() -> policy.visible(ctx, subject, item));
  }

  static boolean readable(ResourcePolicy policy, Context ctx, Subject subject, ResourceItem item)
      throws CodeModeException {
    return allowed(() -> policy.read(ctx, subject, item));
  }

  private static boolean allowed(Question q) throws CodeModeException {
    try {
      q.ask();
      return true;
    } catch (Throwable t) {
      if (Access.isDenial(t)) {
        return false;
      }
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
  }
}
