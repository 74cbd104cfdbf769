package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.ConfirmationRequired;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Entry;
import java.util.Map;

/** Asks the policy and maps its answer: allow, deny, or fail closed. */
public final class Access {

  private Access() {}

  /** Whether the subject may see {@code e}; any non-denial failure fails the request closed. */
  public static boolean discover(Policy policy, Context ctx, Subject subject, Entry e)
      throws CodeModeException {
    try {
      policy.authorize(
          ctx, new AccessRequest(AccessRequest.Kind.DISCOVER, subject, e.id(), e.name(), Map.of()));
      return true;
    } catch (Throwable t) {
      if (isDenial(t)) {
        return false;
      }
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
  }

  /**
   * Whether {@code t} is a denial: an {@link AccessDenied} itself or anywhere in its cause chain
   * (the Go original matches {@code errors.Is(err, authz.ErrDenied)} through wrappers).
   */
  public static boolean isDenial(Throwable t) {
    return inChain(t, AccessDenied.class);
  }

  /**
   * Whether {@code t} asks for a person's confirmation: a {@link ConfirmationRequired} in its cause
   * chain, and no denial (a denial wins).
   */
  static boolean isConfirmationRequest(Throwable t) {
    return !isDenial(t) && inChain(t, ConfirmationRequired.class);
  }

  private static boolean inChain(Throwable t, Class<? extends Throwable> type) {
    int depth = 0;
    for (Throwable c = t; c != null && depth++ < 64; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  /** The policy's scope key; any failure fails the request closed. */
  public static String scopeKey(Policy policy, Context ctx, Subject subject)
      throws CodeModeException {
    try {
      return policy.scopeKey(ctx, subject);
    } catch (Throwable t) {
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
  }
}
