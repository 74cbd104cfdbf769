package dev.agentcompute.capabilities.model;

import java.util.Locale;
import java.util.Optional;

/** The network fabric of a sandbox or network: member-local Linux bridges or OVN. */
public enum NetworkKind {
  BRIDGE,
  OVN;

  /** The lowercase name agents and Incus use. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<NetworkKind> parse(String text) {
    for (NetworkKind kind : values()) {
      if (kind.wireName().equals(text)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
