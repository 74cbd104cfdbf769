package dev.agentcompute.rego.compile;

import java.util.BitSet;

/** Which variables (frame slots) IR terms and statements mention. */
final class IrVars {
  private IrVars() {}

  /** Every variable in {@code t}, closures included. */
  static void all(Ir.T t, BitSet out) {
    switch (t) {
      case Ir.Const c -> {}
      case Ir.Root r -> {}
      case Ir.Local l -> out.set(l.slot());
      case Ir.Ref r -> {
        all(r.head(), out);
        for (Ir.T p : r.path()) {
          all(p, out);
        }
      }
      case Ir.Arr a -> all(a.items(), out);
      case Ir.SetT s -> all(s.items(), out);
      case Ir.Obj o -> {
        all(o.keys(), out);
        all(o.values(), out);
      }
      case Ir.Call c -> all(c.args(), out);
      case Ir.ArrCompr c -> {
        all(c.head(), out);
        all(c.body(), out);
      }
      case Ir.SetCompr c -> {
        all(c.head(), out);
        all(c.body(), out);
      }
      case Ir.ObjCompr c -> {
        all(c.key(), out);
        all(c.value(), out);
        all(c.body(), out);
      }
    }
  }

  static void all(Ir.T[] ts, BitSet out) {
    for (Ir.T t : ts) {
      all(t, out);
    }
  }

  static void all(Ir.S[] body, BitSet out) {
    for (Ir.S s : body) {
      all(s, out);
    }
  }

  static void all(Ir.S s, BitSet out) {
    switch (s) {
      case Ir.Unify u -> {
        all(u.a(), out);
        all(u.b(), out);
      }
      case Ir.CallS c -> {
        all(c.call(), out);
        if (c.out() != null) {
          all(c.out(), out);
        }
      }
      case Ir.TermS t -> all(t.term(), out);
      case Ir.Not n -> all(n.inner(), out);
      case Ir.SomeIn si -> {
        if (si.key() != null) {
          all(si.key(), out);
        }
        all(si.value(), out);
        all(si.domain(), out);
      }
      case Ir.Every e -> {
        if (e.key() != null) {
          out.set(e.key().slot());
        }
        out.set(e.value().slot());
        all(e.domain(), out);
        all(e.body(), out);
      }
      case Ir.With w -> {
        all(w.inner(), out);
        for (Ir.WithMod m : w.mods()) {
          all(m.value(), out);
        }
      }
    }
  }

  /** Variables of {@code t} outside closures (what evaluating {@code t} itself binds or reads). */
  static void top(Ir.T t, BitSet out) {
    switch (t) {
      case Ir.Local l -> out.set(l.slot());
      case Ir.Ref r -> {
        top(r.head(), out);
        for (Ir.T p : r.path()) {
          top(p, out);
        }
      }
      case Ir.Arr a -> top(a.items(), out);
      case Ir.SetT s -> top(s.items(), out);
      case Ir.Obj o -> {
        top(o.keys(), out);
        top(o.values(), out);
      }
      case Ir.Call c -> top(c.args(), out);
      default -> {}
    }
  }

  static void top(Ir.T[] ts, BitSet out) {
    for (Ir.T t : ts) {
      top(t, out);
    }
  }

  static void top(Ir.S s, BitSet out) {
    switch (s) {
      case Ir.Unify u -> {
        top(u.a(), out);
        top(u.b(), out);
      }
      case Ir.CallS c -> {
        top(c.call(), out);
        if (c.out() != null) {
          top(c.out(), out);
        }
      }
      case Ir.TermS t -> top(t.term(), out);
      case Ir.Not n -> top(n.inner(), out);
      case Ir.SomeIn si -> {
        if (si.key() != null) {
          top(si.key(), out);
        }
        top(si.value(), out);
        top(si.domain(), out);
      }
      case Ir.Every e -> top(e.domain(), out);
      case Ir.With w -> {
        top(w.inner(), out);
        for (Ir.WithMod m : w.mods()) {
          top(m.value(), out);
        }
      }
    }
  }

  /** What a successful statement leaves bound. */
  static void outputs(Ir.S s, BitSet out) {
    switch (s) {
      case Ir.Not n -> {}
      case Ir.Every e -> {}
      case Ir.With w -> outputs(w.inner(), out);
      default -> top(s, out);
    }
  }
}
