package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.Arrays;
import java.util.List;

/** An immutable sequence; hashable when all its elements are. */
public final class Tuple implements Sequence, Sliceable, Comparable, Printer.Nested {
  public static final Tuple EMPTY = new Tuple(new Value[0]);

  private final Value[] elems;
  private boolean deepFrozen; // elements already frozen: shared sub-tuples are visited once
  private int hash;
  private boolean hashed; // hash is memoised so that shared sub-tuples are hashed once

  private Tuple(Value[] elems) {
    this.elems = elems;
  }

  public static Tuple of(Value... values) {
    return values.length == 0 ? EMPTY : new Tuple(values.clone());
  }

  /** Wraps {@code values} without copying; the caller must not modify the array afterwards. */
  public static Tuple wrap(Value[] values) {
    return values.length == 0 ? EMPTY : new Tuple(values);
  }

  public static Tuple copyOf(List<? extends Value> values) {
    return values.isEmpty() ? EMPTY : new Tuple(values.toArray(new Value[0]));
  }

  public Value get(int i) {
    return elems[i];
  }

  public List<Value> elements() {
    return Arrays.asList(elems).subList(0, elems.length);
  }

  Value[] array() {
    return elems;
  }

  @Override
  public int len() {
    return elems.length;
  }

  @Override
  public Value index(int i) {
    return elems[i];
  }

  @Override
  public Value slice(int start, int end, int step) {
    if (step == 1) {
      return start >= end ? EMPTY : new Tuple(Arrays.copyOfRange(elems, start, end));
    }
    int n = Operators.sliceLength(start, end, step);
    Value[] out = new Value[n];
    for (int i = 0, j = start; i < n; i++, j += step) {
      out[i] = elems[j];
    }
    return wrap(out);
  }

  @Override
  public Iterator iterate() {
    return new Iterator() {
      private int i;

      @Override
      public Value next() {
        return i < elems.length ? elems[i++] : null;
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String type() {
    return "tuple";
  }

  @Override
  public boolean truth() {
    return elems.length != 0;
  }

  @Override
  public int hash() throws EvalException {
    if (hashed) {
      return hash;
    }
    // Not starlark-go's (Python's) combination, which is linear over the elements' hashes: with
    // bools or None, whose hashes are fixed, colliding tuples could be solved for.
    int x = Hashing.tupleStart(elems.length);
    for (Value e : elems) {
      x = Hashing.combine(x, e.hash());
    }
    hash = x;
    hashed = true;
    return x;
  }

  @Override
  public void freeze() {
    if (!deepFrozen) {
      deepFrozen = true;
      for (Value v : elems) {
        v.freeze();
      }
    }
  }

  @Override
  public boolean isFrozen() {
    return true;
  }

  @Override
  public void repr(StringBuilder sb) {
    Printer.print(sb, this);
  }

  @Override
  public void reprNested(StringBuilder sb, Printer p) {
    sb.append('(');
    for (int i = 0; i < elems.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      p.repr(sb, elems[i]);
    }
    if (elems.length == 1) {
      sb.append(',');
    }
    sb.append(')');
  }

  @Override
  public String cycleMarker() {
    return "(...)";
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    return cmp.elements(op, Arrays.asList(elems), Arrays.asList(((Tuple) y).elems));
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
