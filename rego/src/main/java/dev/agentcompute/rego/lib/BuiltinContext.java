package dev.agentcompute.rego.lib;

/**
 * What a builtin may ask of the evaluation calling it. Builtins whose cost grows with their input
 * or output (ranges, string building, set algebra, JSON) charge for it before doing the work, so a
 * step budget bounds them too.
 */
public interface BuiltinContext {
  /** Charges {@code units} evaluation steps; throws (unchecked) when the budget is exhausted. */
  void charge(long units);

  /**
   * A value a builtin stored earlier under {@code key} (compiled regular expressions and globs),
   * shared by the evaluations of one policy; null when absent.
   */
  Object cached(String key);

  /** Stores {@code value} for {@link #cached}; may be ignored when the cache is full. */
  void cache(String key, Object value);
}
