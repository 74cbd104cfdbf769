package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/** The values {@code True} and {@code False}; ordered {@code False < True}. */
public final class Bool implements Comparable, Immutable {
  public static final Bool TRUE = new Bool(true);
  public static final Bool FALSE = new Bool(false);

  private final boolean value;

  private Bool(boolean value) {
    this.value = value;
  }

  public static Bool of(boolean b) {
    return b ? TRUE : FALSE;
  }

  public boolean value() {
    return value;
  }

  @Override
  public String type() {
    return "bool";
  }

  @Override
  public boolean truth() {
    return value;
  }

  @Override
  public int hash() {
    return value ? 1 : 0;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append(value ? "True" : "False");
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) {
    return Operators.threeway(op, Boolean.compare(value, ((Bool) y).value));
  }

  @Override
  public String toString() {
    return value ? "True" : "False";
  }
}
