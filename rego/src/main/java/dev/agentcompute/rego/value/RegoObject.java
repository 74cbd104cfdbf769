package dev.agentcompute.rego.value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable Rego object. Keys may be any value; they are kept sorted (OPA iterates and prints
 * objects in key order). Objects above a handful of keys carry a hash index for lookups.
 */
public final class RegoObject implements RegoValue {
  public static final RegoObject EMPTY = new RegoObject(new RegoValue[0], new RegoValue[0]);

  private final RegoValue[] keys; // sorted, distinct
  private final RegoValue[] values;
  private final HashMap<RegoValue, Integer> index; // null for small objects
  private int hash;

  private RegoObject(RegoValue[] keys, RegoValue[] values) {
    this.keys = keys;
    this.values = values;
    this.index = keys.length > RegoSet.INDEX_THRESHOLD ? RegoSet.indexOf(keys) : null;
  }

  /** Accumulates entries; a later {@link #put} of an existing key replaces its value. */
  public static final class Builder {
    private final Map<RegoValue, RegoValue> entries;

    public Builder() {
      entries = new HashMap<>();
    }

    public Builder(int expected) {
      entries = HashMap.newHashMap(expected);
    }

    public Builder put(RegoValue key, RegoValue value) {
      entries.put(key, value);
      return this;
    }

    public Builder put(String key, RegoValue value) {
      return put(RegoString.of(key), value);
    }

    /** The value already stored under {@code key}, or null. */
    public RegoValue get(RegoValue key) {
      return entries.get(key);
    }

    public int size() {
      return entries.size();
    }

    public RegoObject build() {
      if (entries.isEmpty()) {
        return EMPTY;
      }
      RegoValue[] ks = entries.keySet().toArray(new RegoValue[0]);
      Arrays.sort(ks, Values::compare);
      RegoValue[] vs = new RegoValue[ks.length];
      for (int i = 0; i < ks.length; i++) {
        vs[i] = entries.get(ks[i]);
      }
      return new RegoObject(ks, vs);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public static RegoObject of(String key, RegoValue value) {
    return new RegoObject(new RegoValue[] {RegoString.of(key)}, new RegoValue[] {value});
  }

  public int size() {
    return keys.length;
  }

  public RegoValue key(int i) {
    return keys[i];
  }

  public RegoValue value(int i) {
    return values[i];
  }

  /** The value under {@code key}, or null when absent. */
  public RegoValue get(RegoValue key) {
    if (index != null) {
      Integer i = index.get(key);
      return i == null ? null : values[i];
    }
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return values[i];
      }
    }
    return null;
  }

  public RegoValue get(String key) {
    return get(RegoString.of(key));
  }

  /** The keys in sorted order (read-only). */
  public List<RegoValue> keys() {
    return Arrays.asList(keys).subList(0, keys.length);
  }

  /** A copy with {@code key} set to {@code value}. */
  public RegoObject with(RegoValue key, RegoValue value) {
    Builder b = toBuilder();
    b.put(key, value);
    return b.build();
  }

  /** A copy without {@code key}. */
  public RegoObject without(RegoValue key) {
    if (get(key) == null) {
      return this;
    }
    List<RegoValue> ks = new ArrayList<>(keys.length);
    List<RegoValue> vs = new ArrayList<>(keys.length);
    for (int i = 0; i < keys.length; i++) {
      if (!keys[i].equals(key)) {
        ks.add(keys[i]);
        vs.add(values[i]);
      }
    }
    return ks.isEmpty()
        ? EMPTY
        : new RegoObject(ks.toArray(new RegoValue[0]), vs.toArray(new RegoValue[0]));
  }

  public Builder toBuilder() {
    Builder b = new Builder(keys.length + 1);
    for (int i = 0; i < keys.length; i++) {
      b.put(keys[i], values[i]);
    }
    return b;
  }

  @Override
  public String typeName() {
    return "object";
  }

  @Override
  public int typeOrder() {
    return 7;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RegoObject b)
        || b.keys.length != keys.length
        || b.hashCode() != hashCode()) {
      return false;
    }
    for (int i = 0; i < keys.length; i++) {
      if (!keys[i].equals(b.keys[i]) || !values[i].equals(b.values[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = (Arrays.hashCode(keys) * 31 + Arrays.hashCode(values)) | 1;
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return RegoText.of(this);
  }
}
