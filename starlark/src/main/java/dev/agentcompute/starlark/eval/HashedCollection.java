package dev.agentcompute.starlark.eval;

import java.util.List;

/**
 * What dict and set share: a {@link HashTable} in insertion order, its length, iteration over keys,
 * truth, freezing, unhashability and the printed form (entries between an opening and a closing
 * text). Subclasses add their methods, comparison and how one entry prints.
 */
abstract sealed class HashedCollection implements Sequence, HasAttrs, Comparable, Printer.Nested
    permits Dict, StarlarkSet {
  final HashTable table = new HashTable();

  /** The printed form's opening and closing texts, e.g. {@code "{"} and {@code "}"}. */
  abstract String open();

  abstract String close();

  /** Prints the entry at table index {@code e}. */
  abstract void reprEntry(StringBuilder sb, Printer p, int e);

  @Override
  public final int len() {
    return table.len();
  }

  @Override
  public final Iterator iterate() {
    return table.iterateKeys();
  }

  @Override
  public final boolean truth() {
    return table.len() > 0;
  }

  @Override
  public final int hash() throws EvalException {
    throw new EvalException("unhashable type: " + type());
  }

  @Override
  public final void freeze() {
    table.freeze();
  }

  @Override
  public final boolean isFrozen() {
    return table.frozen;
  }

  /** The keys (a dict's keys, a set's elements) in insertion order (a snapshot). */
  final List<Value> keyList() {
    return List.of(table.keysArray());
  }

  @Override
  public final void repr(StringBuilder sb) {
    Printer.print(sb, this);
  }

  @Override
  public final void reprNested(StringBuilder sb, Printer p) {
    sb.append(open());
    boolean first = true;
    for (int e = table.nextEntry(0); e >= 0; e = table.nextEntry(e + 1)) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      reprEntry(sb, p, e);
    }
    sb.append(close());
  }

  @Override
  public final String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
