package dev.agentcompute.starlark.eval;

/** An iterable with a known length (list, tuple, dict, set, range). */
public interface Sequence extends Iterable {
  int len();
}
