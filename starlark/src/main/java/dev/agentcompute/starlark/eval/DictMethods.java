package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods of dict values (spec §1.4). */
final class DictMethods {
  private DictMethods() {}

  static Value attr(Dict d, String name) {
    return null;
  }

  static List<String> names() {
    return List.of();
  }

  /** Copies every entry of {@code src} into {@code dst}. */
  static void update(Dict dst, Dict src) throws EvalException {
    HashTable t = src.table;
    for (int e = t.nextEntry(0); e >= 0; e = t.nextEntry(e + 1)) {
      dst.put(t.keyAt(e), t.valueAt(e));
    }
  }
}
