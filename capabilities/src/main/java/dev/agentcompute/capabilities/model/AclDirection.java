package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** Which side of a network an ACL rule filters. */
public enum AclDirection {
  INGRESS,
  EGRESS;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static AclDirection parse(String text) {
    for (AclDirection d : values()) {
      if (d.wireName().equals(text)) {
        return d;
      }
    }
    throw Errors.of("direction \"%s\" is not supported", text);
  }
}
