package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Expr;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.syntax.Term;
import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one clause (a rule body with its head, or a query) from syntax into {@link Ir}: every
 * variable becomes a frame slot, names become rules, imports, roots or builtins. Variables declared
 * with {@code :=}, {@code some} or {@code every} are scoped to their body (comprehensions open a
 * new scope); any other variable names one variable throughout the clause, as in OPA.
 */
final class Resolver {
  /** The names a body can see besides its variables. */
  record Names(List<String> pkg, Set<String> ruleNames, Map<String, List<Term>> imports) {
    static final Names QUERY = new Names(null, Set.of(), Map.of());
  }

  private static final class Scope {
    final Scope parent;
    final Map<String, Ir.Local> declared = new HashMap<>();
    final Set<String> seen = new HashSet<>();

    Scope(Scope parent) {
      this.parent = parent;
    }
  }

  private final Names names;
  private final RuleNode root;
  private final List<Problem> problems;
  private final Map<String, Ir.Local> free = new HashMap<>();
  private final List<Ir.Local> locals = new ArrayList<>();
  private Scope scope = new Scope(null);
  private final Callees callees;

  Resolver(Names names, RuleNode root, List<Problem> problems) {
    this.names = names;
    this.root = root;
    this.problems = problems;
    this.callees = new Callees(names, root, problems);
  }

  int slots() {
    return locals.size();
  }

  /**
   * A query's outputs: its free variables and those it declares at its top level ({@code x := ...},
   * {@code some x}), except generated ones.
   */
  Map<String, Ir.Local> freeVars() {
    Map<String, Ir.Local> out = new HashMap<>();
    Scope root = scope;
    while (root.parent != null) {
      root = root.parent;
    }
    Map<String, Ir.Local> all = new HashMap<>(free);
    all.putAll(root.declared);
    all.forEach(
        (k, v) -> {
          if (!k.startsWith("_$") && !k.startsWith("__local")) {
            out.put(k, v);
          }
        });
    return out;
  }

  private void error(String code, Position pos, String message) {
    problems.add(new Problem(code, pos, message));
  }

  private Ir.Local newLocal(String name, Position pos) {
    Ir.Local l = new Ir.Local(locals.size(), name, pos);
    locals.add(l);
    return l;
  }

  private Ir.Local declared(String name) {
    for (Scope s = scope; s != null; s = s.parent) {
      Ir.Local l = s.declared.get(name);
      if (l != null) {
        return l;
      }
    }
    return null;
  }

  // ---- declarations ----

  /** Declares every variable in pattern {@code t} in the current scope (for {@code :=}). */
  void declarePattern(Term t, boolean assignment) {
    switch (t) {
      case Term.Var v -> declare(v, assignment);
      case Term.ArrayTerm a -> a.items().forEach(x -> declarePattern(x, assignment));
      case Term.ObjectTerm o -> o.values().forEach(x -> declarePattern(x, assignment));
      default -> {}
    }
  }

  void declare(Term.Var v, boolean assignment) {
    if (v.isWildcard()) {
      return;
    }
    String n = v.name();
    if (n.equals("input") || n.equals("data")) {
      error(Codes.COMPILE, v.pos(), "cannot assign to " + n);
      return;
    }
    if (scope.declared.containsKey(n)) {
      error(Codes.COMPILE, v.pos(), "var " + n + " assigned above");
      return;
    }
    if (assignment && scope.seen.contains(n)) {
      error(Codes.COMPILE, v.pos(), "var " + n + " referenced above");
      return;
    }
    scope.declared.put(n, newLocal(n, v.pos()));
  }

  /** Declares the variables of a function parameter pattern; a repeated name is one variable. */
  void declareArg(Term t) {
    switch (t) {
      case Term.Var v -> {
        if (!v.isWildcard() && !scope.declared.containsKey(v.name())) {
          declare(v, false);
        }
      }
      case Term.ArrayTerm a -> a.items().forEach(this::declareArg);
      case Term.ObjectTerm o -> o.values().forEach(this::declareArg);
      default -> {}
    }
  }

  Ir.Local[] locals() {
    return locals.toArray(new Ir.Local[0]);
  }

  void push() {
    scope = new Scope(scope);
  }

  void pop() {
    scope = scope.parent;
  }

  // ---- bodies ----

  Ir.S[] body(List<Expr> body) {
    List<Ir.S> out = new ArrayList<>(body.size());
    for (Expr e : body) {
      Ir.S s = expr(e);
      if (s != null) {
        out.add(s);
      }
    }
    return out.toArray(new Ir.S[0]);
  }

  /** One literal; null when it compiles to nothing ({@code some x}, {@code print}). */
  private Ir.S expr(Expr e) {
    Ir.S s =
        switch (e.form()) {
          case Expr.SomeVars sv -> {
            sv.vars().forEach(v -> declare(v, true));
            yield null;
          }
          case Expr.SomeIn si -> {
            Ir.T domain = term(si.domain());
            if (si.key() != null) {
              declarePattern(si.key(), true);
            }
            declarePattern(si.value(), true);
            Ir.T key = si.key() == null ? null : term(si.key());
            yield new Ir.SomeIn(key, term(si.value()), domain, e.pos());
          }
          case Expr.Every ev -> {
            Ir.T domain = term(ev.domain());
            push();
            if (ev.key() != null) {
              declare(ev.key(), true);
            }
            declare(ev.value(), true);
            Ir.Local key = ev.key() == null ? null : (Ir.Local) var(ev.key());
            Ir.Local value = (Ir.Local) var(ev.value());
            Ir.S[] b = body(ev.body());
            pop();
            yield new Ir.Every(key, value, domain, b, e.pos());
          }
          case Expr.TermForm tf -> statement(tf.term(), e.pos());
        };
    if (s == null) {
      return null;
    }
    if (e.negated()) {
      s = new Ir.Not(s, e.pos());
    }
    if (!e.withs().isEmpty()) {
      List<Ir.WithMod> mods = new ArrayList<>();
      for (Expr.With w : e.withs()) {
        Ir.WithMod m = callees.with(w, () -> term(w.value()), n -> declared(n) != null);
        if (m != null) {
          mods.add(m);
        }
      }
      s = new Ir.With(s, mods.toArray(new Ir.WithMod[0]), e.pos());
    }
    return s;
  }

  private Ir.S statement(Term t, Position pos) {
    if (t instanceof Term.Call c && "assign".equals(c.operator())) {
      Term lhs = c.args().get(0);
      if (!(lhs instanceof Term.Var
          || lhs instanceof Term.ArrayTerm
          || lhs instanceof Term.ObjectTerm)) {
        error(Codes.COMPILE, lhs.pos(), "cannot assign to " + describe(lhs));
        return null;
      }
      Ir.T rhs = term(c.args().get(1));
      declarePattern(lhs, true);
      return new Ir.Unify(term(lhs), rhs, pos);
    }
    if (t instanceof Term.Call c && "eq".equals(c.operator())) {
      return new Ir.Unify(term(c.args().get(0)), term(c.args().get(1)), pos);
    }
    if (t instanceof Term.Call c) {
      Ir.Fn fn = callees.function(c, n -> declared(n) != null);
      if (fn == null) {
        return c.operator() == null && isPrint(c)
            ? null
            : new Ir.TermS(new Ir.Const(RegoString.EMPTY), pos);
      }
      int n = c.args().size();
      if (n == fn.arity() + 1 && c.operator() == null) {
        Ir.T[] args = terms(c.args().subList(0, n - 1));
        Ir.T out = term(c.args().get(n - 1));
        return new Ir.CallS(new Ir.Call(fn, args, c.pos()), out, pos);
      }
      if (n != fn.arity()) {
        arityError(c, fn, n);
        return null;
      }
      return new Ir.CallS(new Ir.Call(fn, terms(c.args()), c.pos()), null, pos);
    }
    return new Ir.TermS(term(t), pos);
  }

  static boolean isPrint(Term.Call c) {
    return c.target() instanceof Term.Var v && v.name().equals("print");
  }

  private void arityError(Term.Call c, Ir.Fn fn, int n) {
    error(
        Codes.TYPE,
        c.pos(),
        fn.name() + ": arity mismatch: have " + n + " arguments, want " + fn.arity());
  }

  // ---- functions ----

  // ---- terms ----

  Ir.T[] terms(List<Term> ts) {
    Ir.T[] out = new Ir.T[ts.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = term(ts.get(i));
    }
    return out;
  }

  Ir.T term(Term t) {
    return switch (t) {
      case Term.Scalar s -> new Ir.Const(s.value());
      case Term.Var v -> var(v);
      case Term.Ref r -> ref(r);
      case Term.ArrayTerm a -> {
        Ir.T[] items = terms(a.items());
        RegoValue[] vs = constants(items);
        yield vs != null ? new Ir.Const(RegoArray.wrap(vs)) : new Ir.Arr(items);
      }
      case Term.SetTerm s -> {
        Ir.T[] items = terms(s.items());
        RegoValue[] vs = constants(items);
        yield vs != null ? new Ir.Const(RegoSet.of(vs)) : new Ir.SetT(items);
      }
      case Term.ObjectTerm o -> {
        Ir.T[] keys = terms(o.keys());
        Ir.T[] values = terms(o.values());
        RegoValue[] ks = constants(keys);
        RegoValue[] vs = constants(values);
        if (ks != null && vs != null) {
          RegoObject.Builder b = new RegoObject.Builder(ks.length);
          for (int i = 0; i < ks.length; i++) {
            b.put(ks[i], vs[i]);
          }
          yield new Ir.Const(b.build());
        }
        yield new Ir.Obj(keys, values);
      }
      case Term.ArrayCompr c -> {
        push();
        Ir.S[] body = body(c.body());
        Ir.T head = term(c.head());
        pop();
        yield new Ir.ArrCompr(head, body);
      }
      case Term.SetCompr c -> {
        push();
        Ir.S[] body = body(c.body());
        Ir.T head = term(c.head());
        pop();
        yield new Ir.SetCompr(head, body);
      }
      case Term.ObjectCompr c -> {
        push();
        Ir.S[] body = body(c.body());
        Ir.T key = term(c.key());
        Ir.T value = term(c.value());
        pop();
        yield new Ir.ObjCompr(key, value, body);
      }
      case Term.Call c -> {
        if ("assign".equals(c.operator()) || "eq".equals(c.operator())) {
          error(
              Codes.PARSE,
              c.pos(),
              "unexpected " + (c.operator().equals("eq") ? "=" : ":=") + " in term");
          yield new Ir.Const(RegoString.EMPTY);
        }
        Ir.Fn fn = callees.function(c, n -> declared(n) != null);
        if (fn == null) {
          yield new Ir.Const(RegoString.EMPTY);
        }
        if (c.args().size() != fn.arity()) {
          arityError(c, fn, c.args().size());
          yield new Ir.Const(RegoString.EMPTY);
        }
        yield new Ir.Call(fn, terms(c.args()), c.pos());
      }
    };
  }

  private static RegoValue[] constants(Ir.T[] ts) {
    RegoValue[] out = new RegoValue[ts.length];
    for (int i = 0; i < ts.length; i++) {
      if (!(ts[i] instanceof Ir.Const c)) {
        return null;
      }
      out[i] = c.value();
    }
    return out;
  }

  Ir.T var(Term.Var v) {
    String n = v.name();
    if (v.isWildcard()) {
      return newLocal(n, v.pos());
    }
    Ir.Local l = declared(n);
    if (l != null) {
      scope.seen.add(n);
      return l;
    }
    if (n.equals("data") || n.equals("input")) {
      return ref(new Term.Ref(v, List.of(), v.pos()));
    }
    if (names.imports().containsKey(n) || names.ruleNames().contains(n)) {
      return ref(new Term.Ref(v, List.of(), v.pos()));
    }
    scope.seen.add(n);
    return free.computeIfAbsent(n, x -> newLocal(x, v.pos()));
  }

  private Ir.T ref(Term.Ref r) {
    List<Term> path = r.path();
    Ir.T head;
    List<Ir.T> steps = new ArrayList<>();
    if (r.head() instanceof Term.Var v && !v.isWildcard() && declared(v.name()) == null) {
      String n = v.name();
      if (n.equals("data") || n.equals("input")) {
        head = n.equals("data") ? Ir.Root.DATA : Ir.Root.INPUT;
      } else if (names.imports().containsKey(n)) {
        List<Term> imp = names.imports().get(n);
        String root0 = ((Term.Var) imp.get(0)).name();
        head = root0.equals("data") ? Ir.Root.DATA : Ir.Root.INPUT;
        for (Term x : imp.subList(1, imp.size())) {
          steps.add(term(x));
        }
      } else if (names.ruleNames().contains(n)) {
        head = Ir.Root.DATA;
        for (String p : names.pkg()) {
          steps.add(new Ir.Const(RegoString.of(p)));
        }
        steps.add(new Ir.Const(RegoString.of(n)));
      } else {
        head = var(v);
      }
    } else {
      head = term(r.head());
    }
    for (Term p : path) {
      steps.add(term(p));
    }
    if (steps.isEmpty() && !(head instanceof Ir.Root)) {
      return head;
    }
    Ir.T[] arr = steps.toArray(new Ir.T[0]);
    int prefix = 0;
    while (prefix < arr.length && arr[prefix] instanceof Ir.Const) {
      prefix++;
    }
    return new Ir.Ref(head, arr, prefix, r.pos());
  }

  private static String describe(Term t) {
    return switch (t) {
      case Term.Ref r ->
          r.head() instanceof Term.Var v && (v.name().equals("input") || v.name().equals("data"))
              ? v.name()
              : "ref";
      case Term.Call c -> "call";
      default -> "term";
    };
  }
}
