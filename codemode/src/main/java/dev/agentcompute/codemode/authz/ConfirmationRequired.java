package dev.agentcompute.codemode.authz;

/**
 * Thrown by a {@link Policy} answering an {@link AccessRequest.Kind#EXECUTE} request: the call may
 * run once a person confirms it (docs/reference/policy.md#confirmations). Confirmation is not
 * authorization: the confirmed call is asked again. The reason stays on the host; the person sees
 * the call and the capability's summary. Answering {@link AccessRequest.Kind#DISCOVER} with it is a
 * policy bug and fails the request closed.
 */
public final class ConfirmationRequired extends Exception {

  public ConfirmationRequired(String reason) {
    super(reason);
  }
}
