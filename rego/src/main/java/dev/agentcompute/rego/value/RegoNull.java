package dev.agentcompute.rego.value;

/** The Rego {@code null}. */
public final class RegoNull implements RegoValue {
  public static final RegoNull NULL = new RegoNull();

  private RegoNull() {}

  @Override
  public String typeName() {
    return "null";
  }

  @Override
  public int typeOrder() {
    return 0;
  }

  @Override
  public String toString() {
    return "null";
  }
}
