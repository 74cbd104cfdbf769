package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.List;

/** A mutable, insertion-ordered set (enabled only by the {@code set} dialect flag). */
public final class StarlarkSet extends HashedCollection {
  public StarlarkSet() {}

  public void add(Value v) throws EvalException {
    table.insert(v, NoneValue.NONE);
  }

  public boolean contains(Value v) throws EvalException {
    return table.contains(v);
  }

  public List<Value> elements() {
    return keyList();
  }

  @Override
  public String type() {
    return "set";
  }

  @Override
  String open() {
    return "set([";
  }

  @Override
  String close() {
    return "])";
  }

  @Override
  void reprEntry(StringBuilder sb, Printer p, int e) {
    p.repr(sb, table.keyAt(e));
  }

  @Override
  public String cycleMarker() {
    return "set(...)";
  }

  @Override
  public Value attr(String name) throws EvalException {
    return SetMethods.attr(this, name);
  }

  @Override
  public List<String> attrNames() {
    return SetMethods.names();
  }

  boolean isSubsetOf(StarlarkSet y) throws EvalException {
    if (len() > y.len()) {
      return false;
    }
    for (int e = table.nextEntry(0); e >= 0; e = table.nextEntry(e + 1)) {
      if (!y.table.contains(table.keyAt(e))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    StarlarkSet sy = (StarlarkSet) y;
    cmp.count(Math.min(len(), sy.len())); // the lookups of a subset test
    switch (op) {
      case EQL:
        return len() == sy.len() && isSubsetOf(sy);
      case NEQ:
        return !(len() == sy.len() && isSubsetOf(sy));
      case LE:
        return isSubsetOf(sy);
      case LT:
        return len() < sy.len() && isSubsetOf(sy);
      case GE:
        return sy.isSubsetOf(this);
      case GT:
        return len() > sy.len() && sy.isSubsetOf(this);
      default:
        throw new EvalException("set " + op + " set not implemented");
    }
  }
}
