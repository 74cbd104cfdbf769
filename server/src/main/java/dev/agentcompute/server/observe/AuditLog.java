package dev.agentcompute.server.observe;

import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.NativeCallRecord;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The audit trail: one structured line per native call on its own logger, {@value #LOGGER} (so an
 * operator can route or keep it apart from the rest), and the call counted in /metrics. A line
 * holds the time, subject, capability, outcome, duration and the sandbox the call acted on, never
 * argument values or tokens.
 */
public final class AuditLog implements AuditSink {
  public static final String LOGGER = "agentcompute.audit";

  private final Logger logger = System.getLogger(LOGGER);
  private final ServerMetrics metrics;

  public AuditLog(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void nativeCall(NativeCallRecord record) {
    metrics.nativeCall(record.capabilityName(), record.outcome(), record.duration());
    AuditRing.recent().add(AuditEntry.of(record));
    if (!logger.isLoggable(Level.INFO)) {
      return;
    }
    Object[] pairs = {
      "time", record.time().toString(),
      "subject", record.subject(),
      "capability", record.capabilityName(),
      "outcome", record.outcome(),
      "duration_ms", record.duration().toMillis(),
      "sandbox", record.resource() == null ? "" : record.resource()
    };
    logger.log(
        Level.INFO, (java.util.ResourceBundle) null, "native call", new Log.Attributes(pairs));
  }
}
