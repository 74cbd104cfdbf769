package dev.agentcompute.codemode.authz;

/**
 * Thrown by a {@link Policy} or {@link Authorizer} to deny a request, directly or as the cause of
 * what it throws (a wrapped denial is still a denial). Any other exception is a policy failure and
 * fails closed. The message stays on the host: clients only ever see {@code permission denied}
 * (execute) or {@code capability not found} (discovery).
 */
public final class AccessDenied extends Exception {

  public AccessDenied() {
    super("authorization denied");
  }

  public AccessDenied(String reason) {
    super(reason);
  }
}
