package dev.agentcompute.starlark.eval;

import java.util.ArrayList;

/**
 * Writes the repr of nested containers, printing a container already being printed (a cycle) as
 * {@code [...]}, {@code {...}} or {@code (...)}, as starlark-go does. One instance per top-level call.
 */
final class Printer {
  /** Containers that can take part in a cycle print their elements through a Printer. */
  interface Nested extends Value {
    void reprNested(StringBuilder sb, Printer p);

    /** What a cycle back to this container prints. */
    String cycleMarker();
  }

  private final ArrayList<Value> path = new ArrayList<>();

  static void print(StringBuilder sb, Nested top) {
    new Printer().repr(sb, top);
  }

  void repr(StringBuilder sb, Value v) {
    if (v instanceof Nested n) {
      for (Value p : path) {
        if (p == v) {
          sb.append(n.cycleMarker());
          return;
        }
      }
      path.add(v);
      n.reprNested(sb, this);
      path.remove(path.size() - 1);
    } else {
      v.repr(sb);
    }
  }
}
