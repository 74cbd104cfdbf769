package dev.agentcompute.codemode;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The audit record of one native call that reached the host: who called which capability, how it
 * ended and how long it took. It never holds argument values or tokens.
 *
 * @param time when the host received the call
 * @param subject the caller's subject id
 * @param capabilityId the stable capability id
 * @param capabilityName its dotted name
 * @param failure how the call failed, null when it succeeded
 * @param duration from receipt to the result (a confirmation wait included)
 * @param resource what the handler said it acted on ({@link CapabilityCall#resource}), null if
 *     nothing
 * @param executeId the id of the execute the call belongs to ({@link ExecuteIds}), null outside one
 */
public record NativeCallRecord(
    Instant time,
    String subject,
    String capabilityId,
    String capabilityName,
    Failure failure,
    Duration duration,
    String resource,
    String executeId) {

  /** A record outside any execute. */
  public NativeCallRecord(
      Instant time,
      String subject,
      String capabilityId,
      String capabilityName,
      Failure failure,
      Duration duration,
      String resource) {
    this(time, subject, capabilityId, capabilityName, failure, duration, resource, null);
  }

  /** {@code ok}, or the failure class in lower case ({@code permission_denied}): a metric label. */
  public String outcome() {
    return failure == null ? "ok" : failure.name().toLowerCase(Locale.ROOT);
  }
}
