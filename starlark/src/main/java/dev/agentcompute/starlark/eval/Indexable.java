package dev.agentcompute.starlark.eval;

/**
 * A value that supports {@code x[i]} with an integer index (already range-checked by the caller).
 */
public interface Indexable extends Value {
  /** The element at {@code 0 <= i < len()}. */
  Value index(int i) throws EvalException;

  int len();
}
