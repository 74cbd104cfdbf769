package dev.agentcompute.codemode.tokens;

/**
 * A token failed verification. Deliberately without detail: every failure (format, MAC, expiry,
 * kind, scope, generation, the kind's own fields, reuse) gives the client the same answer.
 */
final class InvalidToken extends Exception {

  InvalidToken() {
    super("invalid token", null, false, false);
  }
}
