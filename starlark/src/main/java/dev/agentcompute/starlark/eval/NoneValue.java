package dev.agentcompute.starlark.eval;

/** The single {@code None} value. */
public final class NoneValue implements Immutable {
  public static final NoneValue NONE = new NoneValue();

  private NoneValue() {}

  @Override
  public String type() {
    return "NoneType";
  }

  @Override
  public boolean truth() {
    return false;
  }

  @Override
  public int hash() {
    return 0;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append("None");
  }

  @Override
  public String toString() {
    return "None";
  }
}
