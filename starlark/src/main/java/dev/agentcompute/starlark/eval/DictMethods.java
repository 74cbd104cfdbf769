package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The methods of dict values (docs/reference/starlark.md#builtins), with starlark-go's errors. */
final class DictMethods {
  private static final List<String> NAMES =
      List.of("clear", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values");

  private DictMethods() {}

  static Value attr(Dict d, String name) {
    Builtin.Impl impl = impl(name);
    return impl == null ? null : Builtin.bound(name, impl, d);
  }

  static List<String> names() {
    return NAMES;
  }

  private static Dict recv(Builtin fn) {
    return (Dict) fn.receiver();
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
      case "clear" ->
          (t, fn, a, kw) -> {
            Args.positional("clear", a, kw, 0, 0);
            recv(fn).clear();
            return NoneValue.NONE;
          };
      case "get" ->
          (t, fn, a, kw) -> {
            Value[] p = Args.positional("get", a, kw, 1, 2);
            Value v;
            try {
              v = recv(fn).get(p[0]);
            } catch (EvalException e) {
              throw named(fn, e);
            }
            if (v != null) {
              return v;
            }
            return p[1] != null ? p[1] : NoneValue.NONE;
          };
      case "items" ->
          (t, fn, a, kw) -> {
            Args.positional("items", a, kw, 0, 0);
            HashTable ht = recv(fn).table;
            t.addSteps(1 + ht.len() / 16);
            t.allocate(40L * ht.len());
            ArrayList<Value> out = new ArrayList<>(ht.len());
            for (int e = ht.nextEntry(0); e >= 0; e = ht.nextEntry(e + 1)) {
              out.add(Tuple.wrap(new Value[] {ht.keyAt(e), ht.valueAt(e)}));
            }
            return new StarlarkList(out);
          };
      case "keys" ->
          (t, fn, a, kw) -> {
            Args.positional("keys", a, kw, 0, 0);
            HashTable ht = recv(fn).table;
            t.addSteps(1 + ht.len() / 16);
            t.allocate(8L * ht.len());
            ArrayList<Value> out = new ArrayList<>(ht.len());
            Collections.addAll(out, ht.keysArray());
            return new StarlarkList(out);
          };
      case "values" ->
          (t, fn, a, kw) -> {
            Args.positional("values", a, kw, 0, 0);
            HashTable ht = recv(fn).table;
            t.addSteps(1 + ht.len() / 16);
            t.allocate(8L * ht.len());
            ArrayList<Value> out = new ArrayList<>(ht.len());
            Collections.addAll(out, ht.valuesArray());
            return new StarlarkList(out);
          };
      case "pop" ->
          (t, fn, a, kw) -> {
            Value[] p = Args.positional("pop", a, kw, 1, 2);
            Value v;
            try {
              v = recv(fn).remove(p[0]);
            } catch (EvalException e) {
              throw named(fn, e);
            }
            if (v != null) {
              return v;
            }
            if (p[1] != null) {
              return p[1];
            }
            throw new EvalException("pop: missing key");
          };
      case "popitem" ->
          (t, fn, a, kw) -> {
            Args.positional("popitem", a, kw, 0, 0);
            Dict d = recv(fn);
            if (d.len() == 0) {
              throw new EvalException("popitem: empty dict");
            }
            try {
              return Tuple.wrap(d.table.popFirst());
            } catch (EvalException e) {
              throw named(fn, e);
            }
          };
      case "setdefault" ->
          (t, fn, a, kw) -> {
            Value[] p = Args.positional("setdefault", a, kw, 1, 2);
            Value dflt = p[1] == null ? NoneValue.NONE : p[1];
            Dict d = recv(fn);
            try {
              Value v = d.get(p[0]);
              if (v != null) {
                return v;
              }
              d.put(p[0], dflt);
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return dflt;
          };
      case "update" ->
          (t, fn, a, kw) -> {
            if (a.length > 1) {
              throw new EvalException("update: got " + a.length + " arguments, want at most 1");
            }
            try {
              updateDict(t, recv(fn), a, kw);
            } catch (EvalException e) {
              throw named(fn, e);
            }
            return NoneValue.NONE;
          };
      default -> null;
    };
  }

  /** Copies every entry of {@code src} into {@code dst}. */
  static void update(Dict dst, Dict src) throws EvalException {
    HashTable t = src.table;
    for (int e = t.nextEntry(0); e >= 0; e = t.nextEntry(e + 1)) {
      dst.put(t.keyAt(e), t.valueAt(e));
    }
  }

  /** Go's updateDict: a dict or an iterable of pairs, then keyword arguments. */
  static void updateDict(
      StarlarkThread t, Dict dict, Value[] updates, List<Map.Entry<String, Value>> kwargs)
      throws EvalException {
    if (updates.length == 1) {
      Value u = updates[0];
      if (u instanceof Dict src) {
        t.addSteps(1 + src.len() / 16);
        update(dict, src);
      } else {
        if (!(u instanceof Iterable it)) {
          throw new EvalException("got " + u.type() + ", want iterable");
        }
        try (Iterator iter = it.iterate()) {
          Value pair;
          for (int i = 0; (pair = iter.next()) != null; i++) {
            if ((i & 63) == 63) {
              t.addSteps(4);
            }
            if (!(pair instanceof Iterable pit)) {
              throw new EvalException(
                  "dictionary update sequence element #"
                      + i
                      + " is not iterable ("
                      + pair.type()
                      + ")");
            }
            int len = Operators.len(pair);
            if (len < 0) {
              throw new EvalException(
                  "dictionary update sequence element #"
                      + i
                      + " has unknown length ("
                      + pair.type()
                      + ")");
            }
            if (len != 2) {
              throw new EvalException(
                  "dictionary update sequence element #" + i + " has length " + len + ", want 2");
            }
            try (Iterator it2 = pit.iterate()) {
              Value k = it2.next();
              Value v = it2.next();
              dict.put(k, v);
            }
          }
        }
      }
    }
    int before = dict.len();
    for (Map.Entry<String, Value> kv : kwargs) {
      dict.put(StarlarkString.of(kv.getKey()), kv.getValue());
    }
    if (dict.len() < before + kwargs.size()) {
      Set<String> seen = new HashSet<>();
      for (Map.Entry<String, Value> kv : kwargs) {
        if (!seen.add(kv.getKey())) {
          throw new EvalException("duplicate keyword arg: " + StarlarkString.of(kv.getKey()));
        }
      }
    }
  }
}
