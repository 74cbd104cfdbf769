package dev.agentcompute.capabilities.model;

/** The protocols an ACL rule may name; {@link #ANY} (no protocol) matches every one. */
public enum AclProtocol {
  ANY(""),
  TCP("tcp"),
  UDP("udp"),
  ICMP("icmp");

  private final String wireName;

  AclProtocol(String wireName) {
    this.wireName = wireName;
  }

  /** The agent's word for it ({@code ""} for any). */
  public String wireName() {
    return wireName;
  }

  /** Whether a destination port may be given (tcp and udp only). */
  public boolean hasPorts() {
    return this == TCP || this == UDP;
  }

  static AclProtocol parse(String text) {
    String value = text == null ? "" : text;
    for (AclProtocol p : values()) {
      if (p.wireName.equals(value)) {
        return p;
      }
    }
    throw Errors.of("protocol \"%s\" is not supported", value);
  }
}
