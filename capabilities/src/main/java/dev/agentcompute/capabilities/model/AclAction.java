package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** What an ACL rule does with matching traffic. */
public enum AclAction {
  ALLOW,
  DROP,
  REJECT;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static AclAction parse(String text) {
    for (AclAction a : values()) {
      if (a.wireName().equals(text)) {
        return a;
      }
    }
    throw Errors.of("action \"%s\" is not supported", text);
  }
}
