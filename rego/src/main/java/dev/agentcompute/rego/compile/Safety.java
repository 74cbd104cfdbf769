package dev.agentcompute.rego.compile;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeMap;

/**
 * Orders each body so that every statement runs only once its inputs are bound (OPA reorders the
 * same way), and reports the variables no order can bind: {@code var x is unsafe}. Closures
 * (comprehensions, {@code every}) read the enclosing body's variables they mention; they are
 * ordered with those bound and become ready only once they are.
 */
final class Safety {
  private final List<Problem> problems;

  Safety(List<Problem> problems) {
    this.problems = problems;
  }

  /**
   * Orders {@code body}. {@code bound}: variables bound on entry; {@code visible}: variables of
   * enclosing scopes; {@code head}: variables the clause head (or closure head) reads. On return
   * {@code bound} holds what the body binds.
   */
  Ir.S[] order(Ir.S[] body, BitSet bound, BitSet visible, BitSet head, Ir.Local[] locals) {
    BitSet top = new BitSet();
    for (Ir.S s : body) {
      IrVars.top(s, top);
    }
    BitSet outer = (BitSet) visible.clone();
    outer.or(top);
    Ir.S[] stmts = new Ir.S[body.length];
    for (int i = 0; i < body.length; i++) {
      stmts[i] = closeStatement(body[i], outer, locals);
    }
    BitSet[] others = othersVars(stmts, visible, head);
    List<Integer> remaining = new ArrayList<>();
    for (int i = 0; i < stmts.length; i++) {
      remaining.add(i);
    }
    List<Ir.S> out = new ArrayList<>(stmts.length);
    while (!remaining.isEmpty()) {
      int picked = -1;
      for (int k = 0; k < remaining.size(); k++) {
        int idx = remaining.get(k);
        if (ready(stmts[idx], bound, outer, others[idx])) {
          picked = k;
          break;
        }
      }
      if (picked < 0) {
        for (int idx : remaining) {
          reportUnsafe(stmts[idx], bound, outer, others[idx], locals);
          out.add(stmts[idx]);
        }
        break;
      }
      int idx = remaining.remove(picked);
      out.add(stmts[idx]);
      IrVars.outputs(stmts[idx], bound);
    }
    return out.toArray(new Ir.S[0]);
  }

  /** For each statement, the variables mentioned anywhere else (to tell negation-local ones). */
  private static BitSet[] othersVars(Ir.S[] stmts, BitSet visible, BitSet head) {
    BitSet[] each = new BitSet[stmts.length];
    for (int i = 0; i < stmts.length; i++) {
      each[i] = new BitSet();
      IrVars.all(stmts[i], each[i]);
    }
    BitSet[] out = new BitSet[stmts.length];
    for (int i = 0; i < stmts.length; i++) {
      BitSet o = (BitSet) visible.clone();
      o.or(head);
      for (int j = 0; j < stmts.length; j++) {
        if (j != i) {
          o.or(each[j]);
        }
      }
      out[i] = o;
    }
    return out;
  }

  // ---- readiness ----

  private boolean ready(Ir.S s, BitSet bound, BitSet outer, BitSet others) {
    return switch (s) {
      case Ir.Unify u -> Readiness.unifiable(u.a(), u.b(), bound, outer);
      case Ir.CallS c -> {
        if (!Readiness.evaluable(c.call(), bound, outer)) {
          yield false;
        }
        if (c.out() == null) {
          yield true;
        }
        BitSet b = (BitSet) bound.clone();
        IrVars.top(c.call(), b);
        yield Readiness.patternOk(c.out(), b, outer);
      }
      case Ir.TermS t -> Readiness.evaluable(t.term(), bound, outer);
      case Ir.Not n -> {
        BitSet needs = new BitSet();
        IrVars.all(n.inner(), needs);
        needs.and(others);
        yield Readiness.contains(bound, needs) && ready(n.inner(), bound, outer, others);
      }
      case Ir.SomeIn si -> {
        if (!Readiness.evaluable(si.domain(), bound, outer)) {
          yield false;
        }
        yield (si.key() == null || Readiness.patternOk(si.key(), bound, outer))
            && Readiness.patternOk(si.value(), bound, outer);
      }
      case Ir.Every e -> {
        if (!Readiness.evaluable(e.domain(), bound, outer)) {
          yield false;
        }
        BitSet captured = new BitSet();
        IrVars.all(e.body(), captured);
        captured.and(outer);
        yield Readiness.contains(bound, captured);
      }
      case Ir.With w -> {
        for (Ir.WithMod m : w.mods()) {
          if (!Readiness.evaluable(m.value(), bound, outer)) {
            yield false;
          }
        }
        yield ready(w.inner(), bound, outer, others);
      }
    };
  }

  // ---- errors ----

  private void reportUnsafe(Ir.S s, BitSet bound, BitSet outer, BitSet others, Ir.Local[] locals) {
    BitSet vars = new BitSet();
    IrVars.top(s, vars);
    if (s instanceof Ir.Not n) {
      IrVars.all(n.inner(), vars);
      vars.and(others);
    }
    BitSet closures = new BitSet();
    IrVars.all(s, closures);
    closures.and(outer);
    vars.or(closures);
    vars.andNot(bound);
    BitSet patterns = new BitSet();
    patternVars(s, patterns);
    BitSet inputs = (BitSet) vars.clone();
    inputs.andNot(patterns);
    report(inputs.isEmpty() ? vars : inputs, locals);
  }

  void report(BitSet unsafe, Ir.Local[] locals) {
    TreeMap<String, Ir.Local> byName = new TreeMap<>();
    for (int i = unsafe.nextSetBit(0); i >= 0; i = unsafe.nextSetBit(i + 1)) {
      byName.putIfAbsent(locals[i].display() + "#" + i, locals[i]);
    }
    for (Ir.Local l : byName.values()) {
      problems.add(new Problem(Codes.UNSAFE, l.pos(), "var " + l.display() + " is unsafe"));
    }
  }

  /** Variables in positions a statement could bind (so they are not reported as inputs). */
  private static void patternVars(Ir.S s, BitSet out) {
    switch (s) {
      case Ir.Unify u -> {
        shallow(u.a(), out);
        shallow(u.b(), out);
      }
      case Ir.CallS c -> {
        if (c.out() != null) {
          shallow(c.out(), out);
        }
      }
      case Ir.SomeIn si -> {
        if (si.key() != null) {
          shallow(si.key(), out);
        }
        shallow(si.value(), out);
      }
      case Ir.With w -> patternVars(w.inner(), out);
      default -> {}
    }
  }

  private static void shallow(Ir.T t, BitSet out) {
    switch (t) {
      case Ir.Local l -> out.set(l.slot());
      case Ir.Arr a -> {
        for (Ir.T x : a.items()) {
          shallow(x, out);
        }
      }
      case Ir.Obj o -> {
        for (Ir.T x : o.values()) {
          shallow(x, out);
        }
      }
      default -> {}
    }
  }

  // ---- closures ----

  private Ir.S closeStatement(Ir.S s, BitSet outer, Ir.Local[] locals) {
    return switch (s) {
      case Ir.Unify u ->
          new Ir.Unify(close(u.a(), outer, locals), close(u.b(), outer, locals), u.pos());
      case Ir.CallS c ->
          new Ir.CallS(
              (Ir.Call) close(c.call(), outer, locals),
              c.out() == null ? null : close(c.out(), outer, locals),
              c.pos());
      case Ir.TermS t -> new Ir.TermS(close(t.term(), outer, locals), t.pos());
      case Ir.Not n -> new Ir.Not(closeStatement(n.inner(), outer, locals), n.pos());
      case Ir.SomeIn si ->
          new Ir.SomeIn(
              si.key() == null ? null : close(si.key(), outer, locals),
              close(si.value(), outer, locals),
              close(si.domain(), outer, locals),
              si.pos());
      case Ir.Every e -> {
        BitSet captured = new BitSet();
        IrVars.all(e.body(), captured);
        captured.and(outer);
        if (e.key() != null) {
          captured.set(e.key().slot());
        }
        captured.set(e.value().slot());
        Ir.S[] body = order(e.body(), captured, outer, new BitSet(), locals);
        yield new Ir.Every(e.key(), e.value(), close(e.domain(), outer, locals), body, e.pos());
      }
      case Ir.With w -> {
        Ir.WithMod[] mods = new Ir.WithMod[w.mods().length];
        for (int i = 0; i < mods.length; i++) {
          Ir.WithMod m = w.mods()[i];
          mods[i] =
              new Ir.WithMod(
                  m.kind(),
                  m.path(),
                  m.function(),
                  m.replacement(),
                  close(m.value(), outer, locals),
                  m.pos());
        }
        yield new Ir.With(closeStatement(w.inner(), outer, locals), mods, w.pos());
      }
    };
  }

  /** {@code t} with the bodies of the closures in it ordered. */
  Ir.T close(Ir.T t, BitSet outer, Ir.Local[] locals) {
    return switch (t) {
      case Ir.Const c -> t;
      case Ir.Root r -> t;
      case Ir.Local l -> t;
      case Ir.Ref r ->
          new Ir.Ref(
              close(r.head(), outer, locals),
              closeAll(r.path(), outer, locals),
              r.constPrefix(),
              r.pos());
      case Ir.Arr a -> new Ir.Arr(closeAll(a.items(), outer, locals));
      case Ir.SetT s -> new Ir.SetT(closeAll(s.items(), outer, locals));
      case Ir.Obj o ->
          new Ir.Obj(closeAll(o.keys(), outer, locals), closeAll(o.values(), outer, locals));
      case Ir.Call c -> new Ir.Call(c.fn(), closeAll(c.args(), outer, locals), c.pos());
      case Ir.ArrCompr c -> {
        BitSet head = new BitSet();
        IrVars.all(c.head(), head);
        BitSet bound = captured(t, outer);
        Ir.S[] body = order(c.body(), bound, outer, head, locals);
        BitSet io = innerOuter(outer, body);
        checkHead(bound, io, locals, c.head());
        yield new Ir.ArrCompr(close(c.head(), io, locals), body);
      }
      case Ir.SetCompr c -> {
        BitSet head = new BitSet();
        IrVars.all(c.head(), head);
        BitSet bound = captured(t, outer);
        Ir.S[] body = order(c.body(), bound, outer, head, locals);
        BitSet io = innerOuter(outer, body);
        checkHead(bound, io, locals, c.head());
        yield new Ir.SetCompr(close(c.head(), io, locals), body);
      }
      case Ir.ObjCompr c -> {
        BitSet head = new BitSet();
        IrVars.all(c.key(), head);
        IrVars.all(c.value(), head);
        BitSet bound = captured(t, outer);
        Ir.S[] body = order(c.body(), bound, outer, head, locals);
        BitSet io = innerOuter(outer, body);
        checkHead(bound, io, locals, c.key(), c.value());
        yield new Ir.ObjCompr(close(c.key(), io, locals), close(c.value(), io, locals), body);
      }
    };
  }

  /**
   * Reports the variables of head terms (a rule's or a comprehension's) that the body leaves
   * unbound; {@code bound} is what the body binds.
   */
  void checkHead(BitSet bound, BitSet outer, Ir.Local[] locals, Ir.T... heads) {
    BitSet unsafe = new BitSet();
    for (Ir.T t : heads) {
      if (!Readiness.evaluable(t, bound, outer)) {
        BitSet vars = new BitSet();
        IrVars.all(t, vars);
        vars.and(outer);
        BitSet top = new BitSet();
        IrVars.top(t, top);
        vars.or(top);
        vars.andNot(bound);
        unsafe.or(vars);
      }
    }
    if (!unsafe.isEmpty()) {
      report(unsafe, locals);
    }
  }

  private static BitSet captured(Ir.T closure, BitSet outer) {
    BitSet captured = new BitSet();
    IrVars.all(closure, captured);
    captured.and(outer);
    return captured;
  }

  private static BitSet innerOuter(BitSet outer, Ir.S[] body) {
    BitSet o = (BitSet) outer.clone();
    for (Ir.S s : body) {
      IrVars.top(s, o);
    }
    return o;
  }

  private Ir.T[] closeAll(Ir.T[] ts, BitSet outer, Ir.Local[] locals) {
    Ir.T[] out = new Ir.T[ts.length];
    for (int i = 0; i < ts.length; i++) {
      out[i] = close(ts[i], outer, locals);
    }
    return out;
  }
}
