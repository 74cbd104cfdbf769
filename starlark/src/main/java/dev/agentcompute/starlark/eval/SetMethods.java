package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods and operators of set values. */
final class SetMethods {
  private SetMethods() {}

  static Value attr(StarlarkSet s, String name) {
    return null;
  }

  static List<String> names() {
    return List.of();
  }

  static StarlarkSet union(StarlarkThread thread, StarlarkSet a, StarlarkSet b) throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      out.add(v);
    }
    for (Value v : b.elements()) {
      out.add(v);
    }
    return out;
  }

  static StarlarkSet intersection(StarlarkThread thread, StarlarkSet a, StarlarkSet b) throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      if (b.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }

  static StarlarkSet difference(StarlarkThread thread, StarlarkSet a, StarlarkSet b) throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      if (!b.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }

  static StarlarkSet symmetricDifference(StarlarkThread thread, StarlarkSet a, StarlarkSet b)
      throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      if (!b.contains(v)) {
        out.add(v);
      }
    }
    for (Value v : b.elements()) {
      if (!a.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }
}
