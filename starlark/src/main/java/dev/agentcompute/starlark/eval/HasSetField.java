package dev.agentcompute.starlark.eval;

/** A value whose fields can be assigned with {@code x.name = v}. */
public interface HasSetField extends HasAttrs {
  void setField(String name, Value v) throws EvalException;
}
