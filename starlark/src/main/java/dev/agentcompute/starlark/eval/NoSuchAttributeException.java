package dev.agentcompute.starlark.eval;

/**
 * {@code x.name} where {@code x} has no such field or method. The message is the usual text; the
 * receiver and name let an embedder explain the mistake (list a module's members, say a dict is
 * read with {@code d["key"]}).
 */
public final class NoSuchAttributeException extends EvalException {
  private final Value receiver;
  private final String name;

  NoSuchAttributeException(String message, Value receiver, String name) {
    super(message);
    this.receiver = receiver;
    this.name = name;
  }

  public Value receiver() {
    return receiver;
  }

  public String name() {
    return name;
  }
}
