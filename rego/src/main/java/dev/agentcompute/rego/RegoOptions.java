package dev.agentcompute.rego;

import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoValue;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * How one evaluation runs: the {@code input} document (absent: undefined), base {@code data},
 * strict builtin errors (a failing builtin aborts instead of being undefined), the step budget, the
 * nesting bound and a cancellation hook polled during evaluation. Immutable; the {@code with*}
 * methods return changed copies.
 */
public final class RegoOptions {
  /** Steps allowed by default: generous for policies, fatal for runaway ones. */
  public static final long DEFAULT_MAX_STEPS = 10_000_000L;

  /** Nesting allowed by default (rule calls, body statements, comprehensions combined). */
  public static final int DEFAULT_MAX_DEPTH = 2_000;

  private static final RegoOptions DEFAULTS =
      new RegoOptions(
          null, RegoObject.EMPTY, false, DEFAULT_MAX_STEPS, DEFAULT_MAX_DEPTH, () -> false);

  private final RegoValue input;
  private final RegoObject data;
  private final boolean strict;
  private final long maxSteps;
  private final int maxDepth;
  private final BooleanSupplier cancelled;

  private RegoOptions(
      RegoValue input,
      RegoObject data,
      boolean strict,
      long maxSteps,
      int maxDepth,
      BooleanSupplier cancelled) {
    this.input = input;
    this.data = data;
    this.strict = strict;
    this.maxSteps = maxSteps;
    this.maxDepth = maxDepth;
    this.cancelled = cancelled;
  }

  public static RegoOptions defaults() {
    return DEFAULTS;
  }

  public RegoOptions withInput(RegoValue in) {
    return new RegoOptions(in, data, strict, maxSteps, maxDepth, cancelled);
  }

  public RegoOptions withData(RegoObject d) {
    return new RegoOptions(input, Objects.requireNonNull(d), strict, maxSteps, maxDepth, cancelled);
  }

  public RegoOptions withStrictBuiltinErrors(boolean s) {
    return new RegoOptions(input, data, s, maxSteps, maxDepth, cancelled);
  }

  /** {@code steps <= 0} means unlimited. */
  public RegoOptions withMaxSteps(long steps) {
    return new RegoOptions(input, data, strict, steps, maxDepth, cancelled);
  }

  public RegoOptions withMaxDepth(int depth) {
    if (depth <= 0) {
      throw new IllegalArgumentException("maxDepth must be positive");
    }
    return new RegoOptions(input, data, strict, maxSteps, depth, cancelled);
  }

  /** {@code hook} is polled (cheaply, from the evaluating thread) while evaluation runs. */
  public RegoOptions withCancellation(BooleanSupplier hook) {
    return new RegoOptions(input, data, strict, maxSteps, maxDepth, Objects.requireNonNull(hook));
  }

  public RegoValue input() {
    return input;
  }

  public RegoObject data() {
    return data;
  }

  public boolean strictBuiltinErrors() {
    return strict;
  }

  public long maxSteps() {
    return maxSteps;
  }

  public int maxDepth() {
    return maxDepth;
  }

  public BooleanSupplier cancellation() {
    return cancelled;
  }
}
