package dev.agentcompute.codemode.authz;

/**
 * Thrown by a {@link Policy} or {@link Authorizer} to deny a request. Any other exception is a
 * policy failure and fails closed. The message stays on the host: clients only ever see
 * {@code permission denied} (execute) or {@code capability not found} (discovery).
 */
public final class AccessDenied extends Exception {

    public AccessDenied() {
        super("authorization denied");
    }

    public AccessDenied(String reason) {
        super(reason);
    }
}
