package dev.agentcompute.server.observe;

import java.time.Duration;

/**
 * The audit record of an admin action (who did what to which target, and how it ended), written
 * through the trail's one write point ({@link AuditLog#write}) like every other record, so it
 * reaches the audit logger, the audit file and the recent-records ring alike.
 */
public final class AdminAudit {
  static final String EVENT = "admin action";

  private final AuditLog log;

  public AdminAudit(AuditLog log) {
    this.log = log;
  }

  public void action(
      String subject, String action, String target, String outcome, Duration duration) {
    log.write(
        EVENT,
        "subject",
        subject,
        "action",
        action,
        "target",
        target,
        "outcome",
        outcome,
        "duration_ms",
        duration.toMillis());
  }
}
