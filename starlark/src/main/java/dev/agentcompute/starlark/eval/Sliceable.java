package dev.agentcompute.starlark.eval;

/** An indexable value that supports {@code x[lo:hi:step]}; indices are already normalised. */
public interface Sliceable extends Indexable {
  Value slice(int start, int end, int step) throws EvalException;
}
