package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A mutable list. Mutation fails while frozen or while an iterator is live
 * (docs/reference/starlark.md#values).
 */
public final class StarlarkList
    implements Sequence, HasSetIndex, Sliceable, HasAttrs, Comparable, Printer.Nested {
  final ArrayList<Value> elems;
  private boolean frozen;
  private int itercount;

  public StarlarkList() {
    this.elems = new ArrayList<>();
  }

  /** Takes ownership of {@code elems}. */
  StarlarkList(ArrayList<Value> elems) {
    this.elems = elems;
  }

  public static StarlarkList of(Value... values) {
    ArrayList<Value> l = new ArrayList<>(values.length);
    for (Value v : values) {
      l.add(v);
    }
    return new StarlarkList(l);
  }

  public static StarlarkList copyOf(Collection<? extends Value> values) {
    return new StarlarkList(new ArrayList<>(values));
  }

  /** Wraps {@code values} without copying; the caller gives up the list. */
  public static StarlarkList wrap(ArrayList<Value> values) {
    return new StarlarkList(values);
  }

  /** A read-only view of the elements. */
  public List<Value> elements() {
    return java.util.Collections.unmodifiableList(elems);
  }

  public Value get(int i) {
    return elems.get(i);
  }

  /** Fails with "cannot VERB frozen list" / "cannot VERB list during iteration". */
  void checkMutable(String verb) throws EvalException {
    if (frozen) {
      throw new EvalException("cannot " + verb + " frozen list");
    }
    if (itercount > 0) {
      throw new EvalException("cannot " + verb + " list during iteration");
    }
  }

  public void append(Value v) throws EvalException {
    checkMutable("append to");
    elems.add(v);
  }

  public void clear() throws EvalException {
    checkMutable("clear");
    elems.clear();
  }

  @Override
  public int len() {
    return elems.size();
  }

  @Override
  public Value index(int i) {
    return elems.get(i);
  }

  @Override
  public void setIndex(int i, Value v) throws EvalException {
    checkMutable("assign to element of");
    elems.set(i, v);
  }

  @Override
  public Value slice(int start, int end, int step) {
    if (step == 1) {
      return start >= end
          ? new StarlarkList()
          : new StarlarkList(new ArrayList<>(elems.subList(start, end)));
    }
    int n = Operators.sliceLength(start, end, step);
    ArrayList<Value> out = new ArrayList<>(n);
    for (int i = 0, j = start; i < n; i++, j += step) {
      out.add(elems.get(j));
    }
    return new StarlarkList(out);
  }

  @Override
  public Iterator iterate() {
    final boolean counted = !frozen;
    if (counted) {
      itercount++;
    }
    return new Iterator() {
      private int i;
      private boolean open = counted;

      @Override
      public Value next() {
        return i < elems.size() ? elems.get(i++) : null;
      }

      @Override
      public void close() {
        if (open) {
          open = false;
          itercount--;
        }
      }
    };
  }

  @Override
  public String type() {
    return "list";
  }

  @Override
  public boolean truth() {
    return !elems.isEmpty();
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable type: list");
  }

  @Override
  public void freeze() {
    if (!frozen) {
      frozen = true;
      for (Value v : elems) {
        v.freeze();
      }
    }
  }

  @Override
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public void repr(StringBuilder sb) {
    Printer.print(sb, this);
  }

  @Override
  public void reprNested(StringBuilder sb, Printer p) {
    sb.append('[');
    for (int i = 0; i < elems.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      p.repr(sb, elems.get(i));
    }
    sb.append(']');
  }

  @Override
  public String cycleMarker() {
    return "[...]";
  }

  @Override
  public Value attr(String name) throws EvalException {
    return ListMethods.attr(this, name);
  }

  @Override
  public List<String> attrNames() {
    return ListMethods.names();
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    StarlarkList ly = (StarlarkList) y;
    return cmp.elements(op, elems, ly.elems);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
