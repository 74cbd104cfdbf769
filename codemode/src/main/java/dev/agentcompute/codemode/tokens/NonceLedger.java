package dev.agentcompute.codemode.tokens;

import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Single use of confirmation tokens within one process: a consumed nonce is remembered until its
 * token expires (after that the token is refused for its expiry anyway). Several server processes
 * sharing a secret each keep their own ledger, so single use holds per process.
 */
public final class NonceLedger {

  private final ConcurrentHashMap<String, Long> used = new ConcurrentHashMap<>();

  /** Whether {@code nonce} was consumed already. */
  public boolean isUsed(String nonce) {
    return used.containsKey(nonce);
  }

  /** Consumes {@code nonce}; false when it was consumed already (by this or a concurrent call). */
  public boolean consume(String nonce, long expiresEpochSecond, Instant now) {
    used.values().removeIf(exp -> exp <= now.getEpochSecond());
    return used.putIfAbsent(nonce, expiresEpochSecond) == null;
  }

  int size() {
    return used.size();
  }
}
