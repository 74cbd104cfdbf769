package dev.agentcompute.starlark.eval;

/** A value that supports {@code x[key]} lookups by arbitrary key (dict). */
public interface Mapping extends Value {
  /** The value for {@code key}, or {@code null} when absent. Fails for unhashable keys. */
  Value get(Value key) throws EvalException;
}
