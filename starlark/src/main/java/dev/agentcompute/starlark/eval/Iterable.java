package dev.agentcompute.starlark.eval;

/**
 * A value that can be iterated by {@code for} loops and builtins. Mutable containers count their
 * live iterators so that mutation during iteration fails, as docs/reference/starlark.md#values
 * requires; callers must therefore always {@link Iterator#close()} the iterator
 * (try-with-resources).
 */
public interface Iterable extends Value {
  Iterator iterate();
}
