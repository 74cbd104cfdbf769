package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** The protocols a port forward carries ({@code tcp} when none is given). */
public enum ForwardProtocol {
  TCP,
  UDP;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Absent or empty means {@code tcp}; anything else is {@code protocol "<p>" is not supported}.
   */
  public static ForwardProtocol parse(String protocol) {
    if (protocol == null || protocol.isEmpty()) {
      return TCP;
    }
    for (ForwardProtocol p : values()) {
      if (p.wireName().equals(protocol)) {
        return p;
      }
    }
    throw Errors.of("protocol \"%s\" is not supported", protocol);
  }
}
