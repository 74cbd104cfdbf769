package dev.agentcompute.codemode.authz;

import dev.agentcompute.codemode.Context;

/**
 * The execute-time decision of the original library: asked once per successfully bound native call,
 * before the handler, with the canonical arguments. Return normally to allow; throw {@link
 * AccessDenied} to deny; anything else is a policy failure. Must be thread-safe. Use {@link
 * Policy#of(Authorizer)} to serve it (discovery is then unrestricted).
 */
@FunctionalInterface
public interface Authorizer {

  void authorize(Context ctx, AccessRequest request) throws Exception;

  /** Permits every call whose arguments bind: an explicit, deliberate choice. */
  static Authorizer allowAll() {
    return (ctx, request) -> {};
  }
}
