package dev.agentcompute.codemode.authz;

import dev.agentcompute.codemode.Context;
import java.util.Objects;

/**
 * Decides what a caller may discover and execute. {@link #authorize} is asked with
 * {@link AccessRequest.Kind#DISCOVER} for each capability that search or describe would show
 * (a denial hides it exactly like an unknown name) and with {@link AccessRequest.Kind#EXECUTE}
 * before every dispatch. Throw {@link AccessDenied} to deny; any other exception fails the
 * request closed. {@link #scopeKey} names the caller's effective authorisation (opaque,
 * credential-free, changes when permissions change). Both must be thread-safe.
 */
public interface Policy {

    void authorize(Context ctx, AccessRequest request) throws Exception;

    String scopeKey(Context ctx, Subject subject) throws Exception;

    /** Every subject may discover and execute every enabled capability: for single-user hosts. */
    static Policy allowAll() {
        return of(Authorizer.allowAll());
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
