package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.List;

/** A mutable, insertion-ordered set (enabled only by the {@code set} dialect flag). */
public final class StarlarkSet implements Sequence, HasAttrs, Comparable, Printer.Nested {
  final HashTable table = new HashTable();

  public StarlarkSet() {}

  public void add(Value v) throws EvalException {
    table.insert(v, NoneValue.NONE);
  }

  public boolean contains(Value v) throws EvalException {
    return table.contains(v);
  }

  public List<Value> elements() {
    return List.of(table.keysArray());
  }

  @Override
  public int len() {
    return table.len();
  }

  @Override
  public Iterator iterate() {
    return table.iterateKeys();
  }

  @Override
  public String type() {
    return "set";
  }

  @Override
  public boolean truth() {
    return table.len() > 0;
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable type: set");
  }

  @Override
  public void freeze() {
    table.freeze();
  }

  @Override
  public boolean isFrozen() {
    return table.frozen;
  }

  @Override
  public void repr(StringBuilder sb) {
    Printer.print(sb, this);
  }

  @Override
  public void reprNested(StringBuilder sb, Printer p) {
    sb.append("set([");
    boolean first = true;
    for (int e = table.nextEntry(0); e >= 0; e = table.nextEntry(e + 1)) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      p.repr(sb, table.keyAt(e));
    }
    sb.append("])");
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
  public boolean compareSameType(Token op, Value y, int depth) throws EvalException {
    StarlarkSet sy = (StarlarkSet) y;
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

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
