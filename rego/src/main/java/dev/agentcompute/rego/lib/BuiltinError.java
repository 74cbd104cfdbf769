package dev.agentcompute.rego.lib;

/**
 * A builtin's failure. {@link Kind#TYPE} is an operand of the wrong type ({@code eval_type_error}
 * in OPA), anything else is {@link Kind#BUILTIN} ({@code eval_builtin_error}). The evaluator
 * prefixes the builtin's name. Without strict builtin errors the expression is just undefined.
 */
public final class BuiltinError extends Exception {
  public enum Kind {
    TYPE,
    BUILTIN
  }

  private final Kind kind;

  public BuiltinError(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public static BuiltinError type(String message) {
    return new BuiltinError(Kind.TYPE, message);
  }

  public static BuiltinError of(String message) {
    return new BuiltinError(Kind.BUILTIN, message);
  }

  public Kind kind() {
    return kind;
  }
}
