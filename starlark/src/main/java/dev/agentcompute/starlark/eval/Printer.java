package dev.agentcompute.starlark.eval;

import java.util.ArrayList;

/**
 * Writes the repr of nested containers, printing a container already being printed (a cycle) as
 * {@code [...]}, {@code {...}} or {@code (...)}, as starlark-go does. One instance per top-level call.
 */
final class Printer {
  /** Thrown when a rendering exceeds its size limit; converted to an EvalException by callers. */
  static final class TooLarge extends RuntimeException {
    TooLarge() {
      super("value too large to print", null, false, false);
    }
  }

  /** Containers that can take part in a cycle print their elements through a Printer. */
  interface Nested extends Value {
    void reprNested(StringBuilder sb, Printer p);

    /** What a cycle back to this container prints. */
    String cycleMarker();
  }

  private final ArrayList<Value> path = new ArrayList<>();
  private final long limit;

  private Printer(long limit) {
    this.limit = limit;
  }

  /** Prints {@code top} with the hard size cap ({@link Operators#MAX_BYTES} characters). */
  static void print(StringBuilder sb, Nested top) {
    new Printer(Operators.MAX_BYTES).repr(sb, top);
  }

  /** The repr (or str) of {@code v}, failing with TooLarge beyond {@code limit} characters. */
  static String render(Value v, boolean str, long limit) {
    StringBuilder sb = new StringBuilder();
    if (str && v instanceof StarlarkString s) {
      return s.value();
    }
    new Printer(limit).repr(sb, v);
    return sb.toString();
  }

  void repr(StringBuilder sb, Value v) {
    if (sb.length() > limit) {
      throw new TooLarge();
    }
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
