package dev.agentcompute.rego.compile;

import java.util.BitSet;

/**
 * Whether a term can be evaluated, or matched as a pattern, given the variables bound so far: the
 * questions {@link Safety} asks to order a body.
 */
final class Readiness {
  private Readiness() {}

  static boolean contains(BitSet superset, BitSet subset) {
    BitSet missing = (BitSet) subset.clone();
    missing.andNot(superset);
    return missing.isEmpty();
  }

  /** Whether {@code t} can be evaluated to values (reference steps may bind their variables). */
  static boolean evaluable(Ir.T t, BitSet bound, BitSet outer) {
    return switch (t) {
      case Ir.Const c -> true;
      case Ir.Root r -> true;
      case Ir.Local l -> bound.get(l.slot());
      case Ir.Arr a -> allEvaluable(a.items(), bound, outer);
      case Ir.SetT s -> allEvaluable(s.items(), bound, outer);
      case Ir.Obj o -> {
        BitSet b = (BitSet) bound.clone();
        for (int i = 0; i < o.keys().length; i++) {
          if (!evaluable(o.keys()[i], b, outer) || !evaluable(o.values()[i], b, outer)) {
            yield false;
          }
          IrVars.top(o.keys()[i], b);
          IrVars.top(o.values()[i], b);
        }
        yield true;
      }
      case Ir.Call c -> allEvaluable(c.args(), bound, outer);
      case Ir.Ref r -> {
        if (!evaluable(r.head(), bound, outer)) {
          yield false;
        }
        BitSet b = (BitSet) bound.clone();
        for (Ir.T p : r.path()) {
          if (!evaluable(p, b, outer) && !patternOk(p, b, outer)) {
            yield false;
          }
          IrVars.top(p, b);
        }
        yield true;
      }
      case Ir.ArrCompr c -> closureReady(t, bound, outer);
      case Ir.SetCompr c -> closureReady(t, bound, outer);
      case Ir.ObjCompr c -> closureReady(t, bound, outer);
    };
  }

  /**
   * Whether all of {@code ts} can be evaluated, in some order: the evaluator evaluates terms that
   * bind variables (references) before plain variables, so {@code f(x, a[x])} is fine.
   */
  static boolean allEvaluable(Ir.T[] ts, BitSet bound, BitSet outer) {
    BitSet b = (BitSet) bound.clone();
    boolean[] done = new boolean[ts.length];
    int left = ts.length;
    boolean progress = true;
    while (left > 0 && progress) {
      progress = false;
      for (int i = 0; i < ts.length; i++) {
        if (!done[i] && evaluable(ts[i], b, outer)) {
          done[i] = true;
          left--;
          progress = true;
          IrVars.top(ts[i], b);
        }
      }
    }
    return left == 0;
  }

  private static boolean closureReady(Ir.T closure, BitSet bound, BitSet outer) {
    BitSet captured = new BitSet();
    IrVars.all(closure, captured);
    captured.and(outer);
    return contains(bound, captured);
  }

  /** Whether {@code t} can be matched against a value (its unbound variables get bound). */
  static boolean patternOk(Ir.T t, BitSet bound, BitSet outer) {
    return switch (t) {
      case Ir.Local l -> true;
      case Ir.Arr a -> {
        for (Ir.T x : a.items()) {
          if (!patternOk(x, bound, outer)) {
            yield false;
          }
        }
        yield true;
      }
      case Ir.Obj o -> {
        for (int i = 0; i < o.keys().length; i++) {
          if (!evaluable(o.keys()[i], bound, outer) || !patternOk(o.values()[i], bound, outer)) {
            yield false;
          }
        }
        yield true;
      }
      default -> evaluable(t, bound, outer);
    };
  }

  static boolean unifiable(Ir.T a, Ir.T b, BitSet bound, BitSet outer) {
    if (evaluable(a, bound, outer) && patternOk(b, withTop(bound, a), outer)) {
      return true;
    }
    if (evaluable(b, bound, outer) && patternOk(a, withTop(bound, b), outer)) {
      return true;
    }
    if (a instanceof Ir.Arr x && b instanceof Ir.Arr y && x.items().length == y.items().length) {
      BitSet bb = (BitSet) bound.clone();
      boolean[] done = new boolean[x.items().length];
      int left = done.length;
      boolean progress = true;
      while (left > 0 && progress) {
        progress = false;
        for (int i = 0; i < done.length; i++) {
          if (!done[i] && unifiable(x.items()[i], y.items()[i], bb, outer)) {
            done[i] = true;
            left--;
            progress = true;
            IrVars.top(x.items()[i], bb);
            IrVars.top(y.items()[i], bb);
          }
        }
      }
      return left == 0;
    }
    if (a instanceof Ir.Obj x && b instanceof Ir.Obj y && x.keys().length == y.keys().length) {
      return allEvaluable(x.keys(), bound, outer) && allEvaluable(y.keys(), bound, outer);
    }
    return false;
  }

  private static BitSet withTop(BitSet bound, Ir.T t) {
    BitSet b = (BitSet) bound.clone();
    IrVars.top(t, b);
    return b;
  }
}
