package dev.agentcompute.rego.value;

/** {@code true} or {@code false}; exactly two instances exist, so identity is equality. */
public final class RegoBoolean implements RegoValue {
  public static final RegoBoolean TRUE = new RegoBoolean(true);
  public static final RegoBoolean FALSE = new RegoBoolean(false);

  private final boolean value;

  private RegoBoolean(boolean value) {
    this.value = value;
  }

  public static RegoBoolean of(boolean b) {
    return b ? TRUE : FALSE;
  }

  public boolean value() {
    return value;
  }

  @Override
  public String typeName() {
    return "boolean";
  }

  @Override
  public int typeOrder() {
    return 1;
  }

  @Override
  public String toString() {
    return value ? "true" : "false";
  }
}
