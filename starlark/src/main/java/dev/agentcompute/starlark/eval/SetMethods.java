package dev.agentcompute.starlark.eval;

import java.util.List;
import java.util.Map;

/** The methods and operators of set values. */
final class SetMethods {
  private static final List<String> NAMES =
      List.of(
          "add",
          "clear",
          "difference",
          "discard",
          "intersection",
          "issubset",
          "issuperset",
          "pop",
          "remove",
          "symmetric_difference",
          "union",
          "update");

  private SetMethods() {}

  static Value attr(StarlarkSet s, String name) {
    Builtin.Impl impl = impl(name);
    return impl == null ? null : Builtin.bound(name, impl, s);
  }

  static List<String> names() {
    return NAMES;
  }

  private static StarlarkSet recv(Builtin fn) {
    return (StarlarkSet) fn.receiver();
  }

  private static void noKwargs(String fn, java.util.List<Map.Entry<String, Value>> kw)
      throws EvalException {
    if (!kw.isEmpty()) {
      throw new EvalException(fn + ": does not accept keyword arguments");
    }
  }

  private static EvalException named(Builtin fn, EvalException e) {
    return EvalException.prefixed(fn.name(), e);
  }

  /** The elements of an iterable argument as a new set. */
  private static StarlarkSet toSet(StarlarkThread t, Builtin fn, int param, Value v)
      throws EvalException {
    if (v instanceof StarlarkSet s) {
      return s;
    }
    if (!(v instanceof Iterable it)) {
      throw new EvalException(fn.name() + ": argument #" + param + " is not iterable: " + v.type());
    }
    StarlarkSet out = new StarlarkSet();
    try {
      for (Value x : Operators.toList(t, it)) {
        out.add(x);
      }
    } catch (EvalException e) {
      throw named(fn, e);
    }
    return out;
  }

  /**
   * The implementation of method {@code name}, or null. A switch rather than a table built up
   * front: each lambda is linked only when its method is first used, which keeps start-up cheap.
   */
  private static Builtin.Impl impl(String name) {
    return switch (name) {
      case "add" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("add", a, kw, 1, 1)[0];
            try {
              recv(fn).add(v); // even a no-op insertion into a frozen set fails, as in Go
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return NoneValue.NONE;
          };
      case "clear" ->
          (t, fn, a, kw) -> {
            Args.positional("clear", a, kw, 0, 0);
            if (recv(fn).len() > 0) {
              try {
                recv(fn).table.clear();
              } catch (EvalException e) {
                throw named(fn, e);
              }
            }
            return NoneValue.NONE;
          };
      case "difference" -> (t, fn, a, kw) -> fold(t, fn, a, kw, SetMethods::difference);
      case "discard" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("discard", a, kw, 1, 1)[0];
            try {
              recv(fn).table.delete(v); // even a no-op deletion from a frozen set fails, as in Go
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return NoneValue.NONE;
          };
      case "intersection" -> (t, fn, a, kw) -> fold(t, fn, a, kw, SetMethods::intersection);
      case "issubset" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("issubset", a, kw, 1, 1)[0];
            return Bool.of(recv(fn).isSubsetOf(toSet(t, fn, 1, v)));
          };
      case "issuperset" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("issuperset", a, kw, 1, 1)[0];
            return Bool.of(toSet(t, fn, 1, v).isSubsetOf(recv(fn)));
          };
      case "pop" ->
          (t, fn, a, kw) -> {
            Args.positional("pop", a, kw, 0, 0);
            StarlarkSet s = recv(fn);
            if (s.len() == 0) {
              throw new EvalException("pop: empty set");
            }
            try {
              return s.table.popFirst()[0];
            } catch (EvalException e) {
              throw named(fn, e);
            }
          };
      case "remove" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("remove", a, kw, 1, 1)[0];
            try {
              if (recv(fn).table.delete(v) != null) {
                return NoneValue.NONE;
              }
            } catch (EvalException e) {
              throw named(fn, e);
            }
            throw new EvalException("remove: missing key");
          };
      case "symmetric_difference" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("symmetric_difference", a, kw, 1, 1)[0];
            return symmetricDifference(t, recv(fn), toSet(t, fn, 1, v));
          };
      case "union" -> (t, fn, a, kw) -> fold(t, fn, a, kw, SetMethods::union);
      case "update" ->
          (t, fn, a, kw) -> {
            noKwargs("update", kw);
            StarlarkSet s = recv(fn);
            for (int i = 0; i < a.length; i++) {
              StarlarkSet o = toSet(t, fn, i + 1, a[i]);
              try {
                for (Value v : o.elements()) {
                  s.add(v);
                }
              } catch (EvalException e) {
                throw named(fn, e);
              }
            }
            return NoneValue.NONE;
          };
      default -> null;
    };
  }

  /** A binary set operation. */
  @FunctionalInterface
  private interface SetOp {
    StarlarkSet apply(StarlarkThread t, StarlarkSet x, StarlarkSet y) throws EvalException;
  }

  /** The receiver combined with each argument in turn; a new set even when there is none. */
  private static Value fold(
      StarlarkThread t, Builtin fn, Value[] a, List<Map.Entry<String, Value>> kw, SetOp op)
      throws EvalException {
    noKwargs(fn.name(), kw);
    StarlarkSet r = recv(fn);
    for (int i = 0; i < a.length; i++) {
      r = op.apply(t, r, toSet(t, fn, i + 1, a[i]));
    }
    return r == recv(fn) ? copy(r) : r;
  }

  private static StarlarkSet copy(StarlarkSet s) throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : s.elements()) {
      out.add(v);
    }
    return out;
  }

  static StarlarkSet union(StarlarkThread thread, StarlarkSet a, StarlarkSet b)
      throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      out.add(v);
    }
    for (Value v : b.elements()) {
      out.add(v);
    }
    return out;
  }

  static StarlarkSet intersection(StarlarkThread thread, StarlarkSet a, StarlarkSet b)
      throws EvalException {
    StarlarkSet out = new StarlarkSet();
    for (Value v : a.elements()) {
      if (b.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }

  static StarlarkSet difference(StarlarkThread thread, StarlarkSet a, StarlarkSet b)
      throws EvalException {
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
