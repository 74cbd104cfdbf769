package dev.agentcompute.starlark.eval;

/** An iteration in progress. {@link #close()} releases the container's iteration lock. */
public interface Iterator extends AutoCloseable {
  /** The next element, or {@code null} when the iteration is exhausted. */
  Value next();

  @Override
  void close();
}
