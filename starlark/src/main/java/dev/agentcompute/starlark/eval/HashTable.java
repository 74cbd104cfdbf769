package dev.agentcompute.starlark.eval;

import java.util.Arrays;

/**
 * The insertion-ordered hash table behind dict and set: a compact entry array (keys, values,
 * hashes, in insertion order, deleted entries nulled) indexed by an open-addressing table of entry
 * numbers. Frozen and iterating tables reject mutation with starlark-go's messages.
 */
final class HashTable {
  private static final int EMPTY = 0;
  private static final int DELETED = -1;

  private Value[] keys = new Value[0];
  private Value[] values = new Value[0];
  private int[] hashes = new int[0];
  private int used; // entries appended so far, including deleted ones
  private int count; // live entries
  private int[] index = null; // slot -> entry+1, 0 empty, -1 deleted
  private int tombstones;
  boolean frozen;
  int itercount;

  int len() {
    return count;
  }

  private void checkMutable(String verb) throws EvalException {
    if (frozen) {
      throw new EvalException("cannot " + verb + " frozen hash table");
    }
    if (itercount > 0) {
      throw new EvalException("cannot " + verb + " hash table during iteration");
    }
  }

  /** Returns the value for {@code k}, or null. */
  Value get(Value k) throws EvalException {
    int e = find(k, k.hash());
    return e < 0 ? null : values[e];
  }

  boolean contains(Value k) throws EvalException {
    return find(k, k.hash()) >= 0;
  }

  private int find(Value k, int h) throws EvalException {
    if (count == 0) {
      return -1;
    }
    if (index == null) {
      // small table: linear scan
      for (int i = 0; i < used; i++) {
        Value key = keys[i];
        if (key != null && hashes[i] == h && (key == k || Operators.equal(key, k))) {
          return i;
        }
      }
      return -1;
    }
    int mask = index.length - 1;
    int slot = mix(h) & mask;
    while (true) {
      int s = index[slot];
      if (s == EMPTY) {
        return -1;
      }
      if (s > 0) {
        int e = s - 1;
        if (hashes[e] == h) {
          Value key = keys[e];
          if (key == k || Operators.equal(key, k)) {
            return e;
          }
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private static int mix(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  void insert(Value k, Value v) throws EvalException {
    checkMutable("insert into");
    int h = k.hash();
    int e = find(k, h);
    if (e >= 0) {
      values[e] = v;
      return;
    }
    if (used == keys.length) {
      grow();
    }
    e = used++;
    keys[e] = k;
    values[e] = v;
    hashes[e] = h;
    count++;
    if (index != null) {
      if ((used + tombstones) * 4 >= index.length * 3) {
        rebuildIndex(index.length * 2);
      } else {
        place(e);
      }
    } else if (used > 8) {
      rebuildIndex(32);
    }
  }

  private void grow() {
    if (count < used) {
      compact();
      if (used < keys.length) {
        return;
      }
    }
    int cap = Math.max(8, keys.length * 2);
    keys = Arrays.copyOf(keys, cap);
    values = Arrays.copyOf(values, cap);
    hashes = Arrays.copyOf(hashes, cap);
  }

  /** Removes deleted entries from the entry arrays (keeps order). */
  private void compact() {
    int j = 0;
    for (int i = 0; i < used; i++) {
      if (keys[i] != null) {
        keys[j] = keys[i];
        values[j] = values[i];
        hashes[j] = hashes[i];
        j++;
      }
    }
    for (int i = j; i < used; i++) {
      keys[i] = null;
      values[i] = null;
    }
    used = j;
    if (index != null) {
      rebuildIndex(index.length);
    }
  }

  private void rebuildIndex(int size) {
    while (used * 4 >= size * 3) {
      size *= 2;
    }
    index = new int[size];
    tombstones = 0;
    for (int i = 0; i < used; i++) {
      if (keys[i] != null) {
        place(i);
      }
    }
  }

  private void place(int e) {
    int mask = index.length - 1;
    int slot = mix(hashes[e]) & mask;
    while (index[slot] > 0) {
      slot = (slot + 1) & mask;
    }
    if (index[slot] == DELETED) {
      tombstones--;
    }
    index[slot] = e + 1;
  }

  /** Removes {@code k}; returns its value or null if absent. */
  Value delete(Value k) throws EvalException {
    checkMutable("delete from");
    int h = k.hash();
    int e = find(k, h);
    if (e < 0) {
      return null;
    }
    Value old = values[e];
    if (index != null) {
      int mask = index.length - 1;
      int slot = mix(h) & mask;
      while (index[slot] != e + 1) {
        slot = (slot + 1) & mask;
      }
      index[slot] = DELETED;
      tombstones++;
    }
    keys[e] = null;
    values[e] = null;
    count--;
    if (count == 0) {
      clearEntries();
    }
    return old;
  }

  void clear() throws EvalException {
    checkMutable("clear");
    clearEntries();
  }

  private void clearEntries() {
    Arrays.fill(keys, 0, used, null);
    Arrays.fill(values, 0, used, null);
    used = 0;
    count = 0;
    index = null;
    tombstones = 0;
  }

  /** The first live entry number at or after {@code from}, or -1. */
  int nextEntry(int from) {
    for (int i = from; i < used; i++) {
      if (keys[i] != null) {
        return i;
      }
    }
    return -1;
  }

  Value keyAt(int e) {
    return keys[e];
  }

  Value valueAt(int e) {
    return values[e];
  }

  /** Removes and returns the first entry as {k, v}; the caller checks emptiness. */
  Value[] popFirst() throws EvalException {
    int e = nextEntry(0);
    Value k = keys[e];
    Value v = values[e];
    delete(k);
    return new Value[] {k, v};
  }

  /** Iterates keys in insertion order, holding the iteration lock until closed. */
  Iterator iterateKeys() {
    final boolean counted = !frozen;
    if (counted) {
      itercount++;
    }
    return new Iterator() {
      private int pos;
      private boolean open = counted;

      @Override
      public Value next() {
        int e = nextEntry(pos);
        if (e < 0) {
          pos = used;
          return null;
        }
        pos = e + 1;
        return keys[e];
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

  Value[] keysArray() {
    Value[] out = new Value[count];
    for (int i = 0, j = 0; i < used; i++) {
      if (keys[i] != null) {
        out[j++] = keys[i];
      }
    }
    return out;
  }

  Value[] valuesArray() {
    Value[] out = new Value[count];
    for (int i = 0, j = 0; i < used; i++) {
      if (keys[i] != null) {
        out[j++] = values[i];
      }
    }
    return out;
  }

  void freeze() {
    if (!frozen) {
      frozen = true;
      for (int i = 0; i < used; i++) {
        if (keys[i] != null) {
          keys[i].freeze();
          values[i].freeze();
        }
      }
    }
  }
}
