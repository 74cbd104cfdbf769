package dev.agentcompute.codemode.tokens;

import java.time.Duration;

/**
 * The kinds of signed token (docs/reference/policy.md#tokens), each with its own derived key and
 * lifetime.
 */
public enum TokenKind {
  /** A search_api page cursor: fields {@code q} and {@code o}. */
  SEARCH("search", Duration.ofMinutes(10)),
  /** A resources/list page cursor: field {@code after}. */
  RESOURCES("resources", Duration.ofMinutes(10)),
  /** A confirmation continuation: fields {@code c} and {@code a}; single use. */
  CONFIRMATION("confirmation", Duration.ofMinutes(5));

  private final String label;
  private final Duration lifetime;

  TokenKind(String label, Duration lifetime) {
    this.label = label;
    this.lifetime = lifetime;
  }

  /** The token's first segment. */
  public String label() {
    return label;
  }

  public Duration lifetime() {
    return lifetime;
  }

  static TokenKind byLabel(String label) {
    for (TokenKind k : values()) {
      if (k.label.equals(label)) {
        return k;
      }
    }
    return null;
  }
}
