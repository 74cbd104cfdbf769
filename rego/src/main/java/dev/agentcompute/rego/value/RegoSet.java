package dev.agentcompute.rego.value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;

/**
 * An immutable Rego set. Elements are kept sorted (the order OPA iterates and prints sets in); sets
 * above a handful of elements also carry a hash index for membership.
 */
public final class RegoSet implements RegoValue {
  public static final RegoSet EMPTY = new RegoSet(new RegoValue[0]);
  static final int INDEX_THRESHOLD = 8;

  private final RegoValue[] elems; // sorted, distinct
  private final HashMap<RegoValue, Integer> index; // null for small sets
  private int hash;

  private RegoSet(RegoValue[] sortedDistinct) {
    this.elems = sortedDistinct;
    this.index = sortedDistinct.length > INDEX_THRESHOLD ? indexOf(sortedDistinct) : null;
  }

  static HashMap<RegoValue, Integer> indexOf(RegoValue[] values) {
    HashMap<RegoValue, Integer> m = HashMap.newHashMap(values.length);
    for (int i = 0; i < values.length; i++) {
      m.put(values[i], i);
    }
    return m;
  }

  public static RegoSet of(RegoValue... elems) {
    return of(Arrays.asList(elems));
  }

  /** A set of the distinct values in {@code elems}. */
  public static RegoSet of(Collection<? extends RegoValue> elems) {
    if (elems.isEmpty()) {
      return EMPTY;
    }
    RegoValue[] a = elems.toArray(new RegoValue[0]);
    Arrays.sort(a, Values::compare);
    int n = 1;
    for (int i = 1; i < a.length; i++) {
      if (Values.compare(a[i], a[n - 1]) != 0) {
        a[n++] = a[i];
      }
    }
    return new RegoSet(n == a.length ? a : Arrays.copyOf(a, n));
  }

  public int size() {
    return elems.length;
  }

  /** The i-th element in sorted order. */
  public RegoValue get(int i) {
    return elems[i];
  }

  public boolean contains(RegoValue v) {
    if (index != null) {
      return index.containsKey(v);
    }
    for (RegoValue e : elems) {
      if (e.equals(v)) {
        return true;
      }
    }
    return false;
  }

  /** A read-only view in sorted order. */
  public List<RegoValue> asList() {
    return Arrays.asList(elems).subList(0, elems.length);
  }

  public RegoSet union(RegoSet o) {
    if (o.elems.length == 0) {
      return this;
    }
    if (elems.length == 0) {
      return o;
    }
    List<RegoValue> all = new ArrayList<>(elems.length + o.elems.length);
    all.addAll(asList());
    all.addAll(o.asList());
    return of(all);
  }

  public RegoSet intersect(RegoSet o) {
    List<RegoValue> out = new ArrayList<>();
    for (RegoValue e : elems) {
      if (o.contains(e)) {
        out.add(e);
      }
    }
    return out.size() == elems.length ? this : wrapSorted(out);
  }

  public RegoSet minus(RegoSet o) {
    List<RegoValue> out = new ArrayList<>();
    for (RegoValue e : elems) {
      if (!o.contains(e)) {
        out.add(e);
      }
    }
    return out.size() == elems.length ? this : wrapSorted(out);
  }

  private static RegoSet wrapSorted(List<RegoValue> sorted) {
    return sorted.isEmpty() ? EMPTY : new RegoSet(sorted.toArray(new RegoValue[0]));
  }

  @Override
  public String typeName() {
    return "set";
  }

  @Override
  public int typeOrder() {
    return 8;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RegoSet s) || s.elems.length != elems.length || s.hashCode() != hashCode()) {
      return false;
    }
    for (int i = 0; i < elems.length; i++) {
      if (!elems[i].equals(s.elems[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(elems) * 31 + 7 | 1;
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return RegoText.of(this);
  }
}
