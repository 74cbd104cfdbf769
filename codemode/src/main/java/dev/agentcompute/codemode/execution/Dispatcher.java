package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.CapabilityCall;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.Handler;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.NativeCallRecord;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.binding.HostBinding;
import dev.agentcompute.codemode.binding.OutputConverter;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.catalog.Entry;
import dev.agentcompute.codemode.protocol.Values;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Host side of one native call: lookup, exact re-binding, EXECUTE authorization on detached
 * canonical arguments, the handler, and bounded output conversion. Authorizer and handler run on
 * their own virtual thread and race the execution context; an abandoned one is interrupted but not
 * waited for.
 */
final class Dispatcher {

  /** The worker sent something a correct worker never sends. */
  static final class Violation extends Exception {
    Violation(String message) {
      super(message);
    }
  }

  private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());

  private final Catalog catalog;
  private final Policy policy;
  private final Limits limits;
  private final AuditSink audit;
  private final InstantSource clock;

  Dispatcher(Catalog catalog, Policy policy, Limits limits) {
    this(catalog, policy, limits, AuditSink.NONE, InstantSource.system());
  }

  Dispatcher(Catalog catalog, Policy policy, Limits limits, AuditSink audit, InstantSource clock) {
    this.catalog = catalog;
    this.policy = policy;
    this.limits = limits;
    this.audit = audit;
    this.clock = clock;
  }

  /** The encoded result value and its size; debits {@code budget}. */
  record Result(Object value, long bytes) {}

  Result call(
      Context ctx,
      Subject subject,
      String capabilityId,
      Map<String, Object> arguments,
      long[] remaining)
      throws CodeModeException, Violation {
    return call(ctx, subject, capabilityId, arguments, remaining, CallScope.none());
  }

  /**
   * One native call, observed and audited: the handler reaches its {@link CapabilityCall} through
   * its context, a completed call is counted, and every call of a known capability leaves one
   * {@link NativeCallRecord}.
   */
  Result call(
      Context ctx,
      Subject subject,
      String capabilityId,
      Map<String, Object> arguments,
      long[] remaining,
      CallScope scope)
      throws CodeModeException, Violation {
    Entry entry = catalog.byId(capabilityId);
    if (entry == null) {
      throw new Violation("unknown capability id");
    }
    Instant time = clock.instant();
    long started = System.nanoTime();
    CallReport report = new CallReport(scope, entry.name());
    Failure failure = Failure.INTERNAL;
    scope.started(entry.name());
    try {
      Result r =
          dispatch(
              ctx.withValue(CapabilityCall.KEY, report),
              subject,
              entry,
              arguments,
              remaining,
              scope.gate);
      failure = null;
      scope.completed(entry.name());
      return r;
    } catch (CodeModeException e) {
      failure = e.failure();
      throw e;
    } finally {
      record(
          new NativeCallRecord(
              time,
              subject.id(),
              entry.id(),
              entry.name(),
              failure,
              Duration.ofNanos(System.nanoTime() - started),
              report.resource(),
              ExecuteIds.of(ctx)));
    }
  }

  private void record(NativeCallRecord r) {
    try {
      audit.nativeCall(r);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the audit sink failed on a native call record", e);
    }
  }

  /**
   * The pipeline of one call: bind, canonicalise, authorize EXECUTE, the confirmation gate when the
   * capability or the policy asks for one, the handler, the bounded output.
   */
  private Result dispatch(
      Context ctx,
      Subject subject,
      Entry entry,
      Map<String, Object> arguments,
      long[] remaining,
      Confirmations.Gate gate)
      throws CodeModeException, Violation {
    if (Values.depth(arguments) > limits.maxValueDepth()) {
      throw new Violation("arguments nested beyond the limit");
    }
    HostBinding.Bound bound;
    try {
      bound = HostBinding.bind(entry.input(), arguments);
    } catch (HostBinding.Mismatch m) {
      throw new Violation("arguments do not match the input shape: " + m.getMessage());
    }
    checkLive(ctx);
    AccessRequest request =
        new AccessRequest(
            AccessRequest.Kind.EXECUTE, subject, entry.id(), entry.name(), bound.canonical());
    Throwable denial =
        race(
            ctx,
            () -> {
              policy.authorize(ctx, request);
              return null;
            });
    boolean confirm = entry.confirmationRequired();
    if (denial != null && Access.isDenial(denial)) {
      throw CodeModeException.of(Failure.PERMISSION_DENIED);
    } else if (denial != null && Access.isConfirmationRequest(denial)) {
      confirm = true;
    } else if (denial != null) {
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
    checkLive(ctx);
    if (confirm) {
      gate.pass(entry, bound.canonical());
      checkLive(ctx);
    }
    Object[] output = new Object[1];
    Throwable failure =
        race(
            ctx,
            () -> {
              output[0] = invoke(entry, ctx, subject, bound.input());
              return null;
            });
    if (failure != null) {
      throw Outcomes.applicationFailure(failure);
    }
    checkLive(ctx);
    Object value;
    try {
      value =
          OutputConverter.convert(
              entry.output(),
              (Record) output[0],
              limits.maxValueDepth(),
              Math.min(limits.maxValueBytes(), remaining[0]));
    } catch (OutputConverter.InvalidOutput e) {
      throw CodeModeException.of(Failure.CAPABILITY_FAILURE);
    } catch (OutputConverter.BudgetExceeded e) {
      throw resultLimit(entry);
    }
    long bytes;
    try {
      bytes = Values.size(Values.encode(value));
    } catch (Values.InvalidValue e) {
      throw CodeModeException.of(Failure.CAPABILITY_FAILURE);
    }
    if (bytes > limits.maxValueBytes() || bytes > remaining[0]) {
      throw resultLimit(entry);
    }
    remaining[0] -= bytes;
    return new Result(value, bytes);
  }

  /** A result over the value limit or the execution's remaining intermediate-value budget. */
  private CodeModeException resultLimit(Entry entry) {
    return CodeModeException.of(Failure.RESOURCE_LIMIT)
        .explain(
            "result size limit ("
                + limits.maxValueBytes()
                + " bytes per value, "
                + limits.maxIntermediateValueBytes()
                + " bytes per execution) exceeded by "
                + entry.name()
                + ": ask for less (filters, fewer lines, smaller files) or split the work");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object invoke(Entry entry, Context ctx, Subject subject, Record input)
      throws Exception {
    Handler h = entry.capability().handler();
    return h.handle(ctx, subject, input);
  }

  interface Work {
    Object run() throws Throwable;
  }

  /** What {@link #race} sees when the context ended before the work did. */
  private static final Throwable ABANDONED = new Throwable("abandoned", null, false, false) {};

  /**
   * Runs {@code work} on a virtual thread; returns what it threw (null on success). When the
   * context ends first, the work is interrupted but not waited for.
   */
  private static Throwable race(Context ctx, Work work) throws CodeModeException {
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread t =
        Thread.ofVirtual()
            .name("codemode-dispatch")
            .start(
                () -> {
                  try {
                    work.run();
                    outcome.complete(null);
                  } catch (Throwable e) {
                    outcome.complete(e);
                  }
                });
    try (Context.Registration r = ctx.onDone(() -> outcome.complete(ABANDONED))) {
      Throwable result = outcome.join();
      if (result == ABANDONED) {
        t.interrupt();
        throw Executor.contextFailure(ctx);
      }
      return result;
    }
  }

  private static void checkLive(Context ctx) throws CodeModeException {
    if (ctx.isDone()) {
      throw Executor.contextFailure(ctx);
    }
  }
}
