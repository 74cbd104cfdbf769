package dev.agentcompute.server.observe;

import java.time.Instant;

/**
 * One audit record as the admin API and the console show it, from any record of the trail: an
 * execute, a native call, an admin action, an authentication failure, a reaper deletion.
 *
 * @param kind {@code native_call}, {@code admin}, or the trail's event name for the others
 * @param action the capability (native call), the admin action ({@code sandbox.delete}) or the
 *     event
 * @param target what it acted on (a sandbox, an execute id), empty when nothing
 * @param outcome {@code ok} or the failure class
 */
public record AuditEntry(
    Instant time,
    String kind,
    String subject,
    String action,
    String target,
    String outcome,
    long durationMs) {
  public static final String NATIVE_CALL = "native_call";
  public static final String ADMIN = "admin";

  /** The entry the console shows for one record of the trail. */
  public static AuditEntry of(AuditLog.Record r) {
    String kind =
        switch (r.event()) {
          case "native call" -> NATIVE_CALL;
          case AdminAudit.EVENT -> ADMIN;
          default -> r.event();
        };
    String action = text(r, "capability", text(r, "action", r.event()));
    String target = text(r, "sandbox", text(r, "target", text(r, "execute_id", "")));
    Object duration = r.get("duration_ms").orElse(0L);
    return new AuditEntry(
        r.time(),
        kind,
        text(r, "subject", ""),
        action,
        target,
        text(r, "outcome", text(r, "reason", "")),
        duration instanceof Number n ? n.longValue() : 0L);
  }

  private static String text(AuditLog.Record r, String key, String otherwise) {
    return r.get(key).map(String::valueOf).filter(v -> !v.isEmpty()).orElse(otherwise);
  }
}
