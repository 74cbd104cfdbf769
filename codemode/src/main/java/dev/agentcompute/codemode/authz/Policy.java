package dev.agentcompute.codemode.authz;

import dev.agentcompute.codemode.Context;
import java.util.Objects;

/**
 * Decides what a caller may discover and execute. {@link #authorize} is asked with {@link
 * AccessRequest.Kind#DISCOVER} for each capability that search or describe would show, on every
 * search page (a denial hides it exactly like an unknown name), and with {@link
 * AccessRequest.Kind#EXECUTE} before every dispatch. Return to allow; throw {@link AccessDenied} to
 * deny; throw {@link ConfirmationRequired} (EXECUTE only) to let the call run once a person
 * confirms it; any other exception fails the request closed. {@link #scopeKey} names the caller's
 * effective authorisation (opaque, credential-free, changes when permissions change): search
 * cursors and confirmation tokens are bound to it. Both must be thread-safe. Capability hints never
 * reach a policy: they describe, they do not decide.
 */
public interface Policy {

  void authorize(Context ctx, AccessRequest request) throws Exception;

  String scopeKey(Context ctx, Subject subject) throws Exception;

  /**
   * Every subject may discover and execute every registered, enabled capability: the deliberate
   * choice for a local stdio host serving one person's own commands. A service with more than one
   * caller writes its own policy.
   */
  static Policy allowRegistered() {
    return of(Authorizer.allowAll());
  }

  /**
   * The former name of {@link #allowRegistered()}.
   *
   * @deprecated use {@link #allowRegistered()}
   */
  @Deprecated
  static Policy allowAll() {
    return allowRegistered();
  }

  /** Discovery unrestricted; execution decided by {@code authorizer}; scope key = subject id. */
  static Policy of(Authorizer authorizer) {
    Objects.requireNonNull(authorizer, "authorizer");
    return new Policy() {
      @Override
      public void authorize(Context ctx, AccessRequest request) throws Exception {
        if (request.kind() == AccessRequest.Kind.EXECUTE) {
          authorizer.authorize(ctx, request);
        }
      }

      @Override
      public String scopeKey(Context ctx, Subject subject) {
        return subject.id();
      }
    };
  }
}
