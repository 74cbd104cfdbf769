package dev.agentcompute.rego.value;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** An immutable Rego array. */
public final class RegoArray implements RegoValue {
  public static final RegoArray EMPTY = new RegoArray(new RegoValue[0]);

  private final RegoValue[] items;
  private int hash;

  private RegoArray(RegoValue[] items) {
    this.items = items;
  }

  /** Wraps {@code items} without copying: the caller must not change the array afterwards. */
  public static RegoArray wrap(RegoValue[] items) {
    return items.length == 0 ? EMPTY : new RegoArray(items);
  }

  public static RegoArray of(RegoValue... items) {
    return wrap(items.clone());
  }

  public static RegoArray of(Collection<? extends RegoValue> items) {
    return wrap(items.toArray(new RegoValue[0]));
  }

  public int size() {
    return items.length;
  }

  public RegoValue get(int i) {
    return items[i];
  }

  /** A read-only view. */
  public List<RegoValue> asList() {
    return Arrays.asList(items).subList(0, items.length);
  }

  /** A copy of the elements. */
  public RegoValue[] toArray() {
    return items.clone();
  }

  @Override
  public String typeName() {
    return "array";
  }

  @Override
  public int typeOrder() {
    return 6;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RegoArray a)
        || a.items.length != items.length
        || a.hashCode() != hashCode()) {
      return false;
    }
    for (int i = 0; i < items.length; i++) {
      if (!items[i].equals(a.items[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(items) | 1;
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return RegoText.of(this);
  }
}
