package dev.agentcompute.server.compute;

import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.NativeCallRecord;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.ConfirmationRequired;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.execution.Access;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * MCP resources through the same door as capability calls: before a resource read (or the sandbox
 * listing) does the work of a capability, the CodeMode policy in force is asked the EXECUTE
 * question that call would ask; a capability that needs a person's confirmation ({@code
 * sandbox.confirm}, or a policy answering "confirm") is not readable as a resource, because a read
 * has no way to carry the person's yes (run the capability through {@code execute} instead). Every
 * outcome, refusals included, leaves the same audit line a native call leaves.
 */
final class ResourceGate {
  private static final Logger LOG = System.getLogger(ResourceGate.class.getName());

  private final Supplier<Policy> policy;
  private final Supplier<List<String>> confirm;
  private final AuditSink audit;
  private final InstantSource clock;

  ResourceGate(
      Supplier<Policy> policy,
      Supplier<List<String>> confirm,
      AuditSink audit,
      InstantSource clock) {
    this.policy = policy;
    this.confirm = confirm;
    this.audit = audit;
    this.clock = clock;
  }

  /**
   * Returns when {@code call} would be allowed to run; otherwise audits the refusal and throws
   * {@link AccessDenied}. A policy that fails (neither allows nor denies) is audited and rethrown,
   * which fails the request closed.
   */
  void check(Context ctx, Subject subject, ResourceCall call) throws Exception {
    Instant time = clock.instant();
    long started = System.nanoTime();
    Failure refusal = null;
    if (confirm.get().contains(call.capability())) {
      refusal = Failure.CONFIRMATION_REQUIRED;
    } else {
      try {
        policy
            .get()
            .authorize(
                ctx,
                new AccessRequest(
                    AccessRequest.Kind.EXECUTE,
                    subject,
                    call.capability(),
                    call.capability(),
                    call.arguments()));
      } catch (Exception e) {
        if (Access.isDenial(e)) {
          refusal = Failure.PERMISSION_DENIED;
        } else if (asksConfirmation(e)) {
          refusal = Failure.CONFIRMATION_REQUIRED;
        } else {
          record(time, started, subject, call, Failure.POLICY_FAILURE);
          throw e;
        }
      }
    }
    if (refusal != null) {
      record(time, started, subject, call, refusal);
      throw new AccessDenied(call.capability() + ": " + refusal.text());
    }
  }

  /** Runs the work of an allowed {@code call}, audited as that call. */
  <T> T run(Subject subject, ResourceCall call, Callable<T> work) throws Exception {
    Instant time = clock.instant();
    long started = System.nanoTime();
    Failure failure = Failure.CAPABILITY_FAILURE;
    try {
      T result = work.call();
      failure = null;
      return result;
    } finally {
      record(time, started, subject, call, failure);
    }
  }

  private static boolean asksConfirmation(Throwable t) {
    int depth = 0;
    for (Throwable c = t; c != null && depth++ < 64; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ConfirmationRequired) {
        return true;
      }
    }
    return false;
  }

  private void record(
      Instant time, long started, Subject subject, ResourceCall call, Failure failure) {
    try {
      audit.nativeCall(
          new NativeCallRecord(
              time,
              subject.id(),
              call.capability(),
              call.capability(),
              failure,
              Duration.ofNanos(System.nanoTime() - started),
              call.sandbox().isEmpty() ? null : call.sandbox()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the audit sink failed on a resource read record", e);
    }
  }
}
