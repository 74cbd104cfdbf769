package dev.agentcompute.starlark.eval;

/** A mapping that supports {@code x[k] = v} (dict). */
public interface HasSetKey extends Mapping {
  void setKey(Value key, Value v) throws EvalException;
}
