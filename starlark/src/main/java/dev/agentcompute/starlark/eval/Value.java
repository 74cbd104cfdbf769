package dev.agentcompute.starlark.eval;

/**
 * A Starlark value. Types implement only the small capability interfaces they support ({@link
 * Iterable}, {@link Indexable}, {@link Mapping}, {@link HasAttrs}, ...), and the evaluator and
 * {@link Operators} ask by interface, as starlark-go does.
 */
public interface Value {
  /** The name {@code type(x)} reports, e.g. {@code "int"} or {@code "string"}. */
  String type();

  /**
   * The truth value used by {@code if}, {@code and}, {@code or}, {@code not} and {@code bool(x)}.
   */
  boolean truth();

  /** The hash used by dicts and sets; unhashable values fail with {@code unhashable type: T}. */
  int hash() throws EvalException;

  /** Makes this value and everything reachable from it immutable. Idempotent. */
  void freeze();

  boolean isFrozen();

  /** Appends the Starlark {@code repr} of this value. */
  void repr(StringBuilder sb);

  /** Appends the Starlark {@code str}; differs from {@link #repr} only for strings. */
  default void str(StringBuilder sb) {
    repr(sb);
  }
}
