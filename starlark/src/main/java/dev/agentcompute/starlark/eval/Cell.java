package dev.agentcompute.starlark.eval;

/**
 * A variable captured by a nested function: the enclosing frame's local slot holds the cell and the
 * closure shares it. Never visible to Starlark programs.
 */
final class Cell implements Value {
  Value v;

  Cell(Value v) {
    this.v = v;
  }

  @Override
  public String type() {
    return "cell";
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable type: cell");
  }

  @Override
  public void freeze() {
    if (v != null) {
      v.freeze();
    }
  }

  @Override
  public boolean isFrozen() {
    return false;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append("<cell>");
  }
}
