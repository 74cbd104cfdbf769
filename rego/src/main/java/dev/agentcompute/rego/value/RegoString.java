package dev.agentcompute.rego.value;

/** A Rego string. Builtins index strings by code point, as OPA indexes by rune. */
public final class RegoString implements RegoValue {
  public static final RegoString EMPTY = new RegoString("");

  private final String value;

  private RegoString(String value) {
    this.value = value;
  }

  public static RegoString of(String s) {
    return s.isEmpty() ? EMPTY : new RegoString(s);
  }

  public String value() {
    return value;
  }

  @Override
  public String typeName() {
    return "string";
  }

  @Override
  public int typeOrder() {
    return 3;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegoString s && s.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** The quoted form, as Rego and JSON write it. */
  @Override
  public String toString() {
    return Json.quote(value);
  }
}
