package dev.agentcompute.starlark.eval;

import java.util.Collections;
import java.util.List;

/** The methods of list values (docs/reference/starlark.md#builtins), with starlark-go's errors. */
final class ListMethods {
  private static final List<String> NAMES =
      List.of("append", "clear", "extend", "index", "insert", "pop", "remove");

  private ListMethods() {}

  static Value attr(StarlarkList l, String name) {
    Builtin.Impl impl = impl(name);
    return impl == null ? null : Builtin.bound(name, impl, l);
  }

  static List<String> names() {
    return NAMES;
  }

  private static StarlarkList recv(Builtin fn) {
    return (StarlarkList) fn.receiver();
  }

  private static EvalException named(Builtin fn, EvalException e) {
    return EvalException.prefixed(fn.name(), e);
  }

  /**
   * The implementation of method {@code name}, or null. A switch rather than a table built up
   * front: each lambda is linked only when its method is first used, which keeps start-up cheap.
   */
  private static Builtin.Impl impl(String name) {
    return switch (name) {
      case "append" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("append", a, kw, 1, 1)[0];
            StarlarkList l = recv(fn);
            try {
              l.checkMutable("append to");
            } catch (EvalException e) {
              throw named(fn, e);
            }
            if ((l.elems.size() & 1023) == 1023) {
              t.allocate(8L * 1024);
            }
            l.elems.add(v);
            return NoneValue.NONE;
          };
      case "clear" ->
          (t, fn, a, kw) -> {
            Args.positional("clear", a, kw, 0, 0);
            try {
              recv(fn).clear();
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return NoneValue.NONE;
          };
      case "extend" ->
          (t, fn, a, kw) -> {
            Value x = Args.positional("extend", a, kw, 1, 1)[0];
            Iterable it = Args.iterable("extend", 1, x);
            StarlarkList l = recv(fn);
            try {
              l.checkMutable("extend");
            } catch (EvalException e) {
              throw named(fn, e);
            }
            extend(t, l, it);
            return NoneValue.NONE;
          };
      case "index" ->
          (t, fn, a, kw) -> {
            Value[] p = Args.positional("index", a, kw, 1, 3);
            StarlarkList l = recv(fn);
            int n = l.len();
            int start = bound(fn, p[1], n, 0, "invalid start index: ");
            int end = bound(fn, p[2], n, n, "invalid end index: ");
            Comparison cmp = new Comparison(t);
            for (int i = start; i < end; i++) {
              boolean eq;
              try {
                eq = cmp.member(p[0], l.elems.get(i));
              } catch (EvalException e) {
                throw named(fn, e);
              }
              if (eq) {
                return StarlarkInt.of(i);
              }
            }
            throw new EvalException("index: value not in list");
          };
      case "insert" ->
          (t, fn, a, kw) -> {
            Value[] p = Args.positional("insert", a, kw, 2, 2);
            int index = Args.int32("insert", 1, p[0]);
            StarlarkList l = recv(fn);
            try {
              l.checkMutable("insert into");
            } catch (EvalException e) {
              throw named(fn, e);
            }
            int n = l.len();
            if (index < 0) {
              index += n;
            }
            if (index >= n) {
              l.elems.add(p[1]);
            } else {
              l.elems.add(Math.max(0, index), p[1]);
              t.addSteps(1 + (n - index) / 64);
            }
            return NoneValue.NONE;
          };
      case "pop" ->
          (t, fn, a, kw) -> {
            StarlarkList l = recv(fn);
            int n = l.len();
            Value iv = Args.positional("pop", a, kw, 0, 1)[0];
            int i = iv == null ? n - 1 : Args.int32("pop", 1, iv);
            int orig = i;
            if (i < 0) {
              i += n;
            }
            if (i < 0 || i >= n) {
              throw named(fn, Operators.outOfRange(orig, n, l));
            }
            try {
              l.checkMutable("pop from");
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return l.elems.remove(i);
          };
      case "remove" ->
          (t, fn, a, kw) -> {
            Value v = Args.positional("remove", a, kw, 1, 1)[0];
            StarlarkList l = recv(fn);
            try {
              l.checkMutable("remove from");
            } catch (EvalException e) {
              throw named(fn, e);
            }
            Comparison cmp = new Comparison(t);
            for (int i = 0; i < l.elems.size(); i++) {
              boolean eq;
              try {
                eq = cmp.member(v, l.elems.get(i));
              } catch (EvalException e) {
                throw named(fn, e);
              }
              if (eq) {
                l.elems.remove(i);
                return NoneValue.NONE;
              }
            }
            throw new EvalException("remove: element not found");
          };
      default -> null;
    };
  }

  private static int bound(Builtin fn, Value v, int len, int dflt, String what)
      throws EvalException {
    int r = dflt;
    if (v != null && v != NoneValue.NONE) {
      r = Operators.asInt32(v, fn.name() + ": " + what);
      if (r < 0) {
        r += len;
      }
    }
    return Math.max(0, Math.min(r, len));
  }

  /** Appends every element of {@code it} to {@code l} (the caller checked mutability). */
  static void extend(StarlarkThread t, StarlarkList l, Iterable it) throws EvalException {
    if (it instanceof StarlarkList src) {
      t.addSteps(1 + src.len() / 16);
      t.allocate(8L * src.len());
      l.elems.addAll(src == l ? List.copyOf(src.elems) : src.elems);
      return;
    }
    if (it instanceof Tuple src) {
      t.addSteps(1 + src.len() / 16);
      t.allocate(8L * src.len());
      Collections.addAll(l.elems, src.array());
      return;
    }
    l.elems.addAll(Operators.toList(t, it));
  }
}
