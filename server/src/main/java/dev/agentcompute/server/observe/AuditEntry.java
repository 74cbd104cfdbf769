package dev.agentcompute.server.observe;

import dev.agentcompute.codemode.NativeCallRecord;
import java.time.Instant;

/**
 * One audit record as the admin API and the console show it: a native call or an admin action.
 *
 * @param kind {@code native_call} or {@code admin}
 * @param action the capability (native call) or the admin action ({@code sandbox.delete})
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

  public static AuditEntry of(NativeCallRecord r) {
    return new AuditEntry(
        r.time(),
        NATIVE_CALL,
        r.subject(),
        r.capabilityName(),
        r.resource() == null ? "" : r.resource(),
        r.outcome(),
        r.duration().toMillis());
  }
}
