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
  private final SearchCursors cursors;
  private final boolean agentGuidance;

  private Server(
      Catalog catalog,
      Policy policy,
      Limits limits,
      Executor executor,
      SearchCursors cursors,
      boolean agentGuidance) {
    this.agentGuidance = agentGuidance;
    this.catalog = catalog;
    this.index = new SearchIndex(catalog);
    this.policy = policy;
    this.limits = limits;
    this.executor = executor;
    this.cursors = cursors;
  }

  static Server start(Catalog catalog, Options options, Limits limits) throws CodeModeException {
    Tokens tokens = options.tokens();
    Executor executor =
        Executor.start(
            catalog,
            options.policy(),
            limits,
            new Executor.Services(
                tokens.signer(),
                tokens.ledger(),
                options.clock(),
                options.audit(),
                options.agentGuidance(),
                options.workerIsolation()));
    SearchCursors cursors =
        new SearchCursors(tokens.signer(), options.clock(), catalog.generation(), options.policy());
    return new Server(
        catalog, options.policy(), limits, executor, cursors, options.agentGuidance());
  }

  /** Whether this server was built with agent guidance ({@link Options#agentGuidance()}). */
  public boolean agentGuidance() {
    return agentGuidance;
  }

  /** The resolved limits this server enforces. */
  public Limits limits() {
    return limits;
  }

  /**
   * Ranks the capabilities this subject may discover (the first page). A capability denied at
   * discovery is indistinguishable from an unknown one.
   */
  public SearchResponse search(Context ctx, Subject subject, String query)
      throws CodeModeException {
    return search(ctx, subject, query, null);
  }

  /**
   * The page of a search that {@code cursor} (a previous response's {@code nextCursor} for the same
   * query) points at; null or empty for the first page. Every page asks the policy again; pages
   * never repeat or skip a capability while the catalogue and the caller's permissions stay the
   * same. A cursor that fails verification reads {@code invalid cursor}.
   */
  public SearchResponse search(Context ctx, Subject subject, String query, String cursor)
      throws CodeModeException {
    checkCaller(ctx, subject);
    String q = query == null ? "" : query;
    List<String> tokens = SearchIndex.queryTokens(q, limits.maxSearchQueryBytes());
    long offset = cursors.offset(ctx, subject, q, tokens, cursor);
    if (tokens.isEmpty()) {
      return new SearchResponse(List.of(), false);
    }
    List<Entry> visible = new ArrayList<>();
    for (Entry e : catalog.entries()) {
      if (Access.discover(policy, ctx, subject, e)) {
        visible.add(e);
      }
    }
    SearchResponse page = index.search(q, tokens, visible, limits.maxSearchResults(), offset);
    if (!page.truncated() || page.results().isEmpty()) {
      return page;
    }
    long next = offset + page.results().size();
    return new SearchResponse(page.results(), true, cursors.next(ctx, subject, q, tokens, next));
  }

  /**
   * Exact lookup of an enabled name the subject may discover; otherwise {@code capability not
   * found}.
   */
  public Description describe(Context ctx, Subject subject, String name) throws CodeModeException {
    checkCaller(ctx, subject);
    Entry e = name == null ? null : catalog.byName(name);
    if (e == null || !Access.discover(policy, ctx, subject, e)) {
      throw CodeModeException.of(Failure.NOT_FOUND);
    }
    return e.describe();
  }

  /**
   * Runs one Starlark program in a worker process and returns main's value as null, Boolean, Long,
   * Double, String, List or Map (keys sorted).
   */
  public Object execute(Context ctx, Subject subject, String source) throws CodeModeException {
    return execute(ctx, subject, Execution.of(source));
  }

  /**
   * As {@link #execute(Context, Subject, String)}, with what the caller brings along: a
   * continuation token approving one call, and a way to ask a person now ({@link Confirmer}).
   */
  public Object execute(Context ctx, Subject subject, Execution execution)
      throws CodeModeException {
    return executor.execute(ctx, subject, execution == null ? Execution.of("") : execution);
  }

  /**
   * {@link #execute(Context, Subject, String)} without a deadline or cancellation of the caller's
   * own (the server's MaxExecutionTime still applies): the common case of a host that has no
   * request context.
   */
  public Object execute(Subject subject, String source) throws CodeModeException {
    return execute(Context.background(), subject, source);
  }

  /** As {@link #execute(Subject, String)}, with the value as a typed {@link Result}. */
  public Result run(Subject subject, String source) throws CodeModeException {
    return Result.of(execute(Context.background(), subject, source));
  }

  /** {@link #search(Context, Subject, String)} with the background context. */
  public SearchResponse search(Subject subject, String query) throws CodeModeException {
    return search(Context.background(), subject, query, null);
  }

  /** {@link #describe(Context, Subject, String)} with the background context. */
  public Description describe(Subject subject, String name) throws CodeModeException {
    return describe(Context.background(), subject, name);
  }

  /** The policy's scope key for this caller (cursor binding); failures are policy failures. */
  public String scopeKey(Context ctx, Subject subject) throws CodeModeException {
    checkCaller(ctx, subject);
    return Access.scopeKey(policy, ctx, subject);
  }

  /**
   * The catalogue generation bound into tokens: the same on every instance serving the same enabled
   * catalogue, different after a reload that changes it.
   */
  public String catalogueGeneration() {
    return catalog.generation();
  }

  /**
   * Worker processes started so far (idle pre-started ones included): a diagnostic for tests and
   * benchmarks.
   */
  public long workersStarted() {
    return executor.workersStarted();
  }

  /**
   * Executions waiting for a worker slot now (per-subject cap or all slots busy): a diagnostic for
   * tests, benchmarks and a queue-depth metric.
   */
  public int queuedExecutions() {
    return executor.queuedExecutions();
  }

  /**
   * Worker processes holding an execution slot now (busy, starting for an execution, or idle for
   * their subject): never more than MaxConcurrentExecutions. Spares are counted apart.
   */
  public int liveWorkers() {
    return executor.liveWorkers();
  }

  /**
   * Spare workers started ahead of demand and waiting outside the execution slots (at most three,
   * and at most MaxConcurrentExecutions): a diagnostic for tests and benchmarks.
   */
  public int spareWorkers() {
    return executor.spareWorkers();
  }

  /**
   * The command line this server starts worker JVMs with (java binary, flags, class path, worker
   * main class); a worker's environment holds only {@link CodeMode#WORKER_MARKER}{@code =1}. A
   * diagnostic for benchmarks and operators.
   */
  public List<String> workerCommand() {
    return executor.workerCommand();
  }

  /**
   * The isolation worker JVMs run under: {@code BUBBLEWRAP} (no network, no host files beyond the
   * runtime and class path, as nobody) or {@code NONE}. See {@link WorkerIsolation}.
   */
  public WorkerIsolation.InForce workerIsolation() {
    return executor.workerIsolation();
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
