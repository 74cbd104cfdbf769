package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.catalog.Entry;
import dev.agentcompute.codemode.execution.Access;
import dev.agentcompute.codemode.execution.Executor;
import dev.agentcompute.codemode.search.SearchIndex;
import java.util.ArrayList;
import java.util.List;

/**
 * A built CodeMode service: immutable catalog, search index, policy and worker pool. Safe for
 * concurrent use. {@link #close()} stops idle workers.
 */
public final class Server implements AutoCloseable {

    private final Catalog catalog;
    private final SearchIndex index;
    private final Policy policy;
    private final Limits limits;
    private final Executor executor;

    private Server(Catalog catalog, Policy policy, Limits limits, Executor executor) {
        this.catalog = catalog;
        this.index = new SearchIndex(catalog);
        this.policy = policy;
        this.limits = limits;
        this.executor = executor;
    }

    static Server start(Catalog catalog, Policy policy, Limits limits) throws CodeModeException {
        Executor executor = Executor.start(catalog, policy, limits);
        return new Server(catalog, policy, limits, executor);
    }

    /** The resolved limits this server enforces. */
    public Limits limits() {
        return limits;
    }

    /**
     * Ranks the capabilities this subject may discover. A capability denied at discovery is
     * indistinguishable from an unknown one.
     */
    public SearchResponse search(Context ctx, Subject subject, String query) throws CodeModeException {
        checkCaller(ctx, subject);
        List<String> tokens = SearchIndex.queryTokens(query == null ? "" : query, limits.maxSearchQueryBytes());
        if (tokens.isEmpty()) {
            return new SearchResponse(List.of(), false);
        }
        List<Entry> visible = new ArrayList<>();
        for (Entry e : catalog.entries()) {
            if (Access.discover(policy, ctx, subject, e)) {
                visible.add(e);
            }
        }
        return index.search(query, tokens, visible, limits.maxSearchResults());
    }

    /** Exact lookup of an enabled name the subject may discover; otherwise {@code capability not found}. */
    public Description describe(Context ctx, Subject subject, String name) throws CodeModeException {
        checkCaller(ctx, subject);
        Entry e = name == null ? null : catalog.byName(name);
        if (e == null || !Access.discover(policy, ctx, subject, e)) {
            throw CodeModeException.of(Failure.NOT_FOUND);
        }
        return e.describe();
    }

    /**
     * Runs one Starlark program in a worker process and returns main's value as null, Boolean,
     * Long, Double, String, List or Map (keys sorted).
     */
    public Object execute(Context ctx, Subject subject, String source) throws CodeModeException {
        return executor.execute(ctx, subject, source == null ? "" : source);
    }

    /** The policy's scope key for this caller (cursor binding); failures are policy failures. */
    public String scopeKey(Context ctx, Subject subject) throws CodeModeException {
        checkCaller(ctx, subject);
        try {
            return policy.scopeKey(ctx, subject);
        } catch (Throwable t) {
            throw CodeModeException.of(Failure.POLICY_FAILURE);
        }
    }

    /** Worker processes started so far (idle pre-started ones included): a diagnostic for tests and benchmarks. */
    public long workersStarted() {
        return executor.workersStarted();
    }

    /** Worker processes alive now (idle, starting and busy): never more than MaxConcurrentExecutions. */
    public int liveWorkers() {
        return executor.liveWorkers();
    }

    @Override
    public void close() {
        executor.close();
    }

    private static void checkCaller(Context ctx, Subject subject) throws CodeModeException {
        if (ctx == null) {
            throw CodeModeException.of(Failure.INTERNAL);
        }
        if (subject == null || !subject.isAuthenticated()) {
            throw CodeModeException.of(Failure.UNAUTHENTICATED);
        }
    }
}
