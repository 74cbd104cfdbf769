package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.Handler;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.binding.HostBinding;
import dev.agentcompute.codemode.binding.OutputConverter;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.catalog.Entry;
import dev.agentcompute.codemode.protocol.Values;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Host side of one native call: lookup, exact re-binding, EXECUTE authorization on detached
 * canonical arguments, the handler, and bounded output conversion. Authorizer and handler run on
 * their own virtual thread and race the execution context; an abandoned one is interrupted but
 * not waited for.
 */
final class Dispatcher {

    /** The worker sent something a correct worker never sends. */
    static final class Violation extends Exception {
        Violation(String message) {
            super(message);
        }
    }

    private final Catalog catalog;
    private final Policy policy;
    private final Limits limits;

    Dispatcher(Catalog catalog, Policy policy, Limits limits) {
        this.catalog = catalog;
        this.policy = policy;
        this.limits = limits;
    }

    /** The encoded result value and its size; debits {@code budget}. */
    record Result(Object value, long bytes) { }

    Result call(Context ctx, Subject subject, String capabilityId, Map<String, Object> arguments, long[] remaining)
            throws CodeModeException, Violation {
        Entry entry = catalog.byId(capabilityId);
        if (entry == null) {
            throw new Violation("unknown capability id");
        }
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
        AccessRequest request = new AccessRequest(AccessRequest.Kind.EXECUTE, subject, entry.id(), entry.name(),
                bound.canonical());
        Throwable denial = race(ctx, () -> {
            policy.authorize(ctx, request);
            return null;
        });
        if (denial != null && Access.isDenial(denial)) {
            throw CodeModeException.of(Failure.PERMISSION_DENIED);
        }
        if (denial != null) {
            throw CodeModeException.of(Failure.POLICY_FAILURE);
        }
        checkLive(ctx);
        Object[] output = new Object[1];
        Throwable failure = race(ctx, () -> {
            output[0] = invoke(entry, ctx, subject, bound.input());
            return null;
        });
        if (failure != null) {
            throw handlerFailure(failure);
        }
        checkLive(ctx);
        Object value;
        try {
            value = OutputConverter.convert(entry.output(), (Record) output[0], limits.maxValueDepth(),
                    Math.min(limits.maxValueBytes(), remaining[0]));
        } catch (OutputConverter.InvalidOutput e) {
            throw CodeModeException.of(Failure.CAPABILITY_FAILURE);
        } catch (OutputConverter.BudgetExceeded e) {
            throw CodeModeException.of(Failure.RESOURCE_LIMIT);
        }
        long bytes;
        try {
            bytes = Values.size(Values.encode(value));
        } catch (Values.InvalidValue e) {
            throw CodeModeException.of(Failure.CAPABILITY_FAILURE);
        }
        if (bytes > limits.maxValueBytes() || bytes > remaining[0]) {
            throw CodeModeException.of(Failure.RESOURCE_LIMIT);
        }
        remaining[0] -= bytes;
        return new Result(value, bytes);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object invoke(Entry entry, Context ctx, Subject subject, Record input) throws Exception {
        Handler h = entry.capability().handler();
        return h.handle(ctx, subject, input);
    }

    private static CodeModeException handlerFailure(Throwable t) {
        if (t instanceof RuntimeException || t instanceof Error) {
            return CodeModeException.of(Failure.INTERNAL);
        }
        return AgentError.find(t).flatMap(AgentError::safeMessage)
                .map(m -> CodeModeException.withDetail(Failure.CAPABILITY_FAILURE, m))
                .orElse(CodeModeException.of(Failure.CAPABILITY_FAILURE));
    }

    interface Work {
        Object run() throws Throwable;
    }

    /** Runs {@code work} on a virtual thread; returns what it threw (null on success). */
    private static Throwable race(Context ctx, Work work) throws CodeModeException {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread t = Thread.ofVirtual().name("codemode-dispatch").start(() -> {
            try {
                work.run();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        CompletableFuture<Object> done = ctx.done().thenApply(r -> r);
        Object first = CompletableFuture.anyOf(outcome, done).join();
        if (!outcome.isDone() || first instanceof Context.Reason) {
            if (!outcome.isDone()) {
                t.interrupt();
                throw Executor.contextFailure(ctx);
            }
        }
        return outcome.join();
    }

    private static void checkLive(Context ctx) throws CodeModeException {
        if (ctx.isDone()) {
            throw Executor.contextFailure(ctx);
        }
    }
}
