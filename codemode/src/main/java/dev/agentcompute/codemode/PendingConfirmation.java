package dev.agentcompute.codemode;

import java.time.Instant;

/**
 * A call that needs a person's approval, as an execute that could not ask reports it
 * (docs/reference/policy.md#confirmations): running execute again with {@code token} as its
 * confirmation approves exactly this call, once, until {@code expiresAt}.
 *
 * @param token the continuation token
 * @param capability the capability's dotted name
 * @param arguments the call's canonical arguments as shown to the person (Go-quoted, at most 256
 *     bytes)
 * @param expiresAt when the token stops working
 */
public record PendingConfirmation(
    String token, String capability, String arguments, Instant expiresAt) {}
