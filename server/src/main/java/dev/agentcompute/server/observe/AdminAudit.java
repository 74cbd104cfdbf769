package dev.agentcompute.server.observe;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The audit record of an admin action (who did what to which target, and how it ended), on the
 * audit logger {@value AuditLog#LOGGER} beside the native calls, and into the recent-records ring.
 */
public final class AdminAudit {
  private final Logger logger = System.getLogger(AuditLog.LOGGER);
  private final AuditRing ring;
  private final Clock clock;

  public AdminAudit(AuditRing ring, Clock clock) {
    this.ring = ring;
    this.clock = clock;
  }

  public void action(
      String subject, String action, String target, String outcome, Duration duration) {
    Instant now = clock.instant();
    ring.add(
        new AuditEntry(
            now, AuditEntry.ADMIN, subject, action, target, outcome, duration.toMillis()));
    if (!logger.isLoggable(Level.INFO)) {
      return;
    }
    Object[] pairs = {
      "time", now.toString(),
      "subject", subject,
      "action", action,
      "target", target,
      "outcome", outcome,
      "duration_ms", duration.toMillis()
    };
    logger.log(
        Level.INFO, (java.util.ResourceBundle) null, "admin action", new Log.Attributes(pairs));
  }
}
