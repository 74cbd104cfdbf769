package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.rego.RegoPolicy;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decides every native call with one prepared Rego decision
 * (docs/reference/rego.md#codemode-authorizer; the Go library's {@code authz/rego} Authorizer),
 * evaluated in-process by the Rego evaluator of {@code dev.agentcompute:rego}. Immutable and safe
 * for concurrent calls.
 *
 * <p>{@link #create} takes the decision, a ground reference under {@code data} such as {@code
 * data.codemode.authz.allow} (surrounding whitespace accepted), and one or more modules keyed by
 * non-blank file name, compiled in sorted name order as Rego v1. Nondeterministic builtins do not
 * exist, so a policy using one is rejected; {@code print} is compiled out.
 *
 * <p>{@link #authorize} evaluates the decision with the input {@code {"subject": {"id"},
 * "capability": {"id", "name"}, "arguments"}}: {@code true} allows; {@code false} throws {@link
 * AccessDenied} (CodeMode: {@code permission denied}); undefined throws {@code rego: decision is
 * undefined}, a non-boolean {@code rego: decision must be boolean}, an evaluation failure
 * (including the step budget) {@code rego: <failure>} (all {@link RegoPolicyError}, CodeMode:
 * {@code authorization policy failure}). A context that is or becomes done wins over any of these:
 * its error ({@code context canceled} or the deadline) is thrown instead.
 */
public final class RegoAuthorizer implements Authorizer {
  /** Evaluation steps allowed per decision by default. */
  public static final long DEFAULT_MAX_STEPS = 1_000_000L;

  private final RegoPolicy policy;
  private final SortedMap<String, String> files;
  private final String decision;
  private final RegoPolicy.Decision prepared;
  private final String digest;
  private final long maxSteps;

  private RegoAuthorizer(
      RegoPolicy policy,
      SortedMap<String, String> files,
      String decision,
      RegoPolicy.Decision prepared,
      long maxSteps) {
    this.policy = policy;
    this.files = files;
    this.decision = decision;
    this.prepared = prepared;
    this.digest = PolicyDigest.of(decision, files);
    this.maxSteps = maxSteps;
  }

  /**
   * Validates the decision, compiles the modules and prepares the decision query.
   *
   * @throws RegoPolicyError when {@code dev.agentcompute:rego} is not on the class path, for a null
   *     context, an invalid decision reference, no modules, a blank file name, or a policy that
   *     does not compile (the message has file:line:col)
   * @throws CodeModeException when {@code ctx} is already done (also when it ends during
   *     preparation, even if preparation failed too): {@code context canceled} or the deadline
   */
  public static RegoAuthorizer create(Context ctx, String decision, Map<String, String> modules)
      throws RegoPolicyError, CodeModeException {
    RegoRuntime.require();
    if (ctx == null) {
      throw new RegoPolicyError("rego: a context is required");
    }
    if (ctx.isDone()) {
      throw ContextErrors.of(ctx);
    }
    if (decision == null || modules == null) {
      throw new RegoPolicyError("rego: the decision and modules are required");
    }
    List<RegoValue> path = decisionPath(decision);
    if (modules.isEmpty()) {
      throw new RegoPolicyError("rego: at least one module is required");
    }
    SortedMap<String, String> sorted = new TreeMap<>();
    for (Map.Entry<String, String> e : modules.entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        throw new RegoPolicyError("rego: module file names must not be blank");
      }
      if (e.getValue() == null) {
        throw new RegoPolicyError("rego: module " + e.getKey() + " has no source");
      }
      sorted.put(e.getKey(), e.getValue());
    }
    RegoPolicy policy = RegoCalls.compile(ctx, sorted);
    if (ctx.isDone()) {
      throw ContextErrors.of(ctx);
    }
    return new RegoAuthorizer(
        policy,
        java.util.Collections.unmodifiableSortedMap(sorted),
        decision,
        policy.prepareDecision(path),
        DEFAULT_MAX_STEPS);
  }

  private static List<RegoValue> decisionPath(String decision) throws RegoPolicyError {
    return RegoCalls.decisionPath(decision);
  }

  /**
   * Another decision over the same compiled modules (for example the DISCOVER decision of a {@link
   * RegoAccessPolicy}), validated like {@link #create}'s.
   */
  public RegoAuthorizer forDecision(String otherDecision) throws RegoPolicyError {
    if (otherDecision == null) {
      throw new RegoPolicyError("rego: the decision is required");
    }
    return new RegoAuthorizer(
        policy,
        files,
        otherDecision,
        policy.prepareDecision(decisionPath(otherDecision)),
        maxSteps);
  }

  /** A copy allowing {@code steps} evaluation steps per decision (positive). */
  public RegoAuthorizer withMaxSteps(long steps) {
    if (steps <= 0) {
      throw new IllegalArgumentException("steps must be positive");
    }
    return new RegoAuthorizer(policy, files, decision, prepared, steps);
  }

  /** The decision reference as given. */
  public String decision() {
    return decision;
  }

  /** The module file names, sorted. */
  public List<String> files() {
    return List.copyOf(files.keySet());
  }

  /** {@code sha256:<hex>} over the decision and the files (see {@link PolicyDigest}). */
  public String digest() {
    return digest;
  }

  public long maxSteps() {
    return maxSteps;
  }

  @Override
  public void authorize(Context ctx, AccessRequest request) throws Exception {
    if (ctx == null) {
      throw new RegoPolicyError("rego: a context is required");
    }
    if (ctx.isDone()) {
      throw ContextErrors.of(ctx);
    }
    if (request == null) {
      throw new RegoPolicyError("rego: a request is required");
    }
    Optional<RegoValue> result = RegoCalls.eval(ctx, prepared, request, maxSteps);
    if (ctx.isDone()) {
      throw ContextErrors.of(ctx);
    }
    if (result.isEmpty()) {
      throw new RegoPolicyError("rego: decision is undefined");
    }
    if (!(result.get() instanceof RegoBoolean b)) {
      throw new RegoPolicyError("rego: decision must be boolean");
    }
    if (!b.value()) {
      throw new AccessDenied();
    }
  }

  @Override
  public String toString() {
    return "RegoAuthorizer[" + decision.strip() + ", " + files.keySet() + ", " + digest + "]";
  }
}
