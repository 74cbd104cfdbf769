package dev.agentcompute.starlark.eval;

/**
 * {@code m[key]} where the mapping {@code m} has no such key. The message is the usual text; the
 * mapping and key let an embedder list the keys that do exist.
 */
public final class NoSuchKeyException extends EvalException {
  private final Mapping mapping;
  private final Value key;

  NoSuchKeyException(String message, Mapping mapping, Value key) {
    super(message);
    this.mapping = mapping;
    this.key = key;
  }

  public Mapping mapping() {
    return mapping;
  }

  public Value key() {
    return key;
  }
}
