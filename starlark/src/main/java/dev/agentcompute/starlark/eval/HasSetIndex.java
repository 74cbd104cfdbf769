package dev.agentcompute.starlark.eval;

/** An indexable value that supports {@code x[i] = v} (list). */
public interface HasSetIndex extends Indexable {
  void setIndex(int i, Value v) throws EvalException;
}
