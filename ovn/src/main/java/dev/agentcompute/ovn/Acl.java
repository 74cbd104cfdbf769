package dev.agentcompute.ovn;

import java.util.Map;
import java.util.Optional;

/**
 * OVN_Northbound {@code ACL}: {@code direction} is {@code from-lport} or {@code to-lport}; {@code
 * action} one of allow, allow-related, allow-stateless, drop, reject.
 */
public record Acl(
    Uuid uuid,
    Optional<String> name,
    long priority,
    String direction,
    String match,
    String action,
    boolean log,
    Optional<String> severity,
    long label,
    Map<String, String> options,
    Map<String, String> externalIds)
    implements NbRecord {
  static Acl from(Row row) {
    return new Acl(
        row.uuid(),
        row.optional("name", String.class),
        row.integer("priority"),
        row.string("direction"),
        row.string("match"),
        row.string("action"),
        row.bool("log"),
        row.optional("severity", String.class),
        row.integer("label"),
        row.stringMap("options"),
        row.stringMap("external_ids"));
  }
}
