package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.compile.Clause;
import dev.agentcompute.rego.compile.CompiledPolicy;
import dev.agentcompute.rego.compile.CompiledQuery;
import dev.agentcompute.rego.compile.CompiledRule;
import dev.agentcompute.rego.compile.Ir;
import dev.agentcompute.rego.compile.RuleNode;
import dev.agentcompute.rego.lib.Builtin;
import dev.agentcompute.rego.lib.BuiltinContext;
import dev.agentcompute.rego.lib.BuiltinError;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * Evaluates a compiled query top-down with backtracking, in continuation-passing style: each step
 * calls its continuation once per solution, and a continuation returns true to stop the enumeration
 * (negation and existence checks need one solution). A variable is bound in its frame slot for
 * exactly the duration of the continuation call, so backtracking needs no trail.
 *
 * <p>Rule values are computed on first use and cached for the current {@link Env}. Every statement,
 * iteration step and builtin call is charged against the step budget; cancellation is polled every
 * 1024 steps; nesting is bounded by {@code maxDepth} (and a Java stack overflow is reported as the
 * same failure).
 *
 * <p>One instance per evaluation; not thread-safe.
 */
public final class Evaluator implements BuiltinContext {

  /** What one evaluation runs with. {@code input} null means undefined. */
  public record Settings(
      RegoValue input,
      RegoObject data,
      boolean strictBuiltinErrors,
      long maxSteps,
      int maxDepth,
      BooleanSupplier cancelled) {}

  @FunctionalInterface
  interface K {
    boolean go();
  }

  @FunctionalInterface
  interface VK {
    boolean go(RegoValue v);
  }

  @FunctionalInterface
  interface KV {
    boolean go(RegoValue key, RegoValue value);
  }

  @FunctionalInterface
  interface ArrK {
    boolean go(RegoValue[] values);
  }

  private final CompiledPolicy policy;
  private final boolean strict;
  private final long maxSteps;
  private final int maxDepth;
  private final BooleanSupplier cancelled;
  private long steps;
  private long nextPoll = 1024;
  private int depth;
  private Env env;

  private Evaluator(CompiledPolicy policy, Settings s) {
    this.policy = policy;
    this.strict = s.strictBuiltinErrors();
    this.maxSteps = s.maxSteps() <= 0 ? Long.MAX_VALUE : s.maxSteps();
    this.maxDepth = s.maxDepth();
    this.cancelled = s.cancelled();
    RegoObject data = s.data() == null ? RegoObject.EMPTY : s.data();
    this.env = new Env(s.input(), data, null, null, policy.nodeCount());
  }

  /** Runs {@code q}; each row holds the values of {@link CompiledQuery#outputs()}, in order. */
  public static List<RegoValue[]> run(CompiledQuery q, Settings s) {
    Evaluator e = new Evaluator(q.policy(), s);
    e.poll();
    RegoValue[] frame = new RegoValue[q.slots()];
    List<RegoValue[]> rows = new ArrayList<>();
    List<Ir.Local> outs = q.outputs();
    try {
      e.body(
          frame,
          q.body(),
          0,
          () -> {
            RegoValue[] row = new RegoValue[outs.size()];
            for (int i = 0; i < row.length; i++) {
              row[i] = frame[outs.get(i).slot()];
            }
            rows.add(row);
            return false;
          });
    } catch (StackOverflowError so) {
      throw new EvalFailure(EvalFailure.DEPTH, null, "evaluation nested too deeply");
    }
    return rows;
  }

  // ---- budget ----

  private void step() {
    if (++steps > maxSteps) {
      throw budget();
    }
    if (steps >= nextPoll) {
      nextPoll = steps + 1024;
      poll();
    }
  }

  @Override
  public void charge(long units) {
    steps += Math.max(0, units);
    if (steps > maxSteps || steps < 0) {
      throw budget();
    }
    if (steps >= nextPoll) {
      nextPoll = steps + 1024;
      poll();
    }
  }

  @Override
  public Object cached(String key) {
    return policy.cache().get(key);
  }

  @Override
  public void cache(String key, Object value) {
    if (policy.cache().size() < CompiledPolicy.CACHE_LIMIT) {
      policy.cache().putIfAbsent(key, value);
    }
  }

  private EvalFailure budget() {
    return new EvalFailure(
        EvalFailure.BUDGET, null, "evaluation exceeded its budget of " + maxSteps + " steps");
  }

  private void poll() {
    if ((cancelled != null && cancelled.getAsBoolean()) || Thread.currentThread().isInterrupted()) {
      throw new EvalFailure(EvalFailure.CANCEL, null, "evaluation canceled");
    }
  }

  private void enter(Position pos) {
    if (++depth > maxDepth) {
      depth = 0;
      throw new EvalFailure(
          EvalFailure.DEPTH, pos, "evaluation nested deeper than " + maxDepth + " levels");
    }
  }

  // ---- bodies and statements ----

  private boolean body(RegoValue[] f, Ir.S[] body, int i, K k) {
    if (i == body.length) {
      return k.go();
    }
    return stmt(f, body[i], () -> body(f, body, i + 1, k));
  }

  private boolean stmt(RegoValue[] f, Ir.S s, K k) {
    step();
    enter(s.pos());
    try {
      return switch (s) {
        case Ir.Unify u -> unifyTerms(f, u.a(), u.b(), k);
        case Ir.CallS c ->
            call(
                f,
                c.call(),
                v -> c.out() == null ? !v.isFalse() && k.go() : unify(f, c.out(), v, k));
        case Ir.TermS t -> eval(f, t.term(), v -> !v.isFalse() && k.go());
        case Ir.Not n -> !exists(f, n.inner()) && k.go();
        case Ir.SomeIn si -> someIn(f, si, k);
        case Ir.Every e -> every(f, e, k);
        case Ir.With w -> withMods(f, w, 0, env, k);
      };
    } finally {
      depth--;
    }
  }

  private boolean exists(RegoValue[] f, Ir.S s) {
    boolean[] found = {false};
    stmt(
        f,
        s,
        () -> {
          found[0] = true;
          return true;
        });
    return found[0];
  }

  private boolean bodyExists(RegoValue[] f, Ir.S[] b) {
    boolean[] found = {false};
    body(
        f,
        b,
        0,
        () -> {
          found[0] = true;
          return true;
        });
    return found[0];
  }

  private boolean someIn(RegoValue[] f, Ir.SomeIn si, K k) {
    return eval(
        f,
        si.domain(),
        d ->
            forEach(
                d,
                (key, val) ->
                    si.key() == null
                        ? unify(f, si.value(), val, k)
                        : unify(f, si.key(), key, () -> unify(f, si.value(), val, k))));
  }

  private boolean every(RegoValue[] f, Ir.Every e, K k) {
    return eval(
        f,
        e.domain(),
        d -> {
          boolean[] all = {true};
          forEach(
              d,
              (key, val) -> {
                if (e.key() != null) {
                  f[e.key().slot()] = key;
                }
                f[e.value().slot()] = val;
                boolean ok = bodyExists(f, e.body());
                if (e.key() != null) {
                  f[e.key().slot()] = null;
                }
                f[e.value().slot()] = null;
                all[0] = ok;
                return !ok;
              });
          return all[0] && k.go();
        });
  }

  private boolean withMods(RegoValue[] f, Ir.With w, int i, Env next, K k) {
    if (i == w.mods().length) {
      Env saved = env;
      env = next;
      try {
        return stmt(
            f,
            w.inner(),
            () -> {
              Env inner = env;
              env = saved;
              try {
                return k.go();
              } finally {
                env = inner;
              }
            });
      } finally {
        env = saved;
      }
    }
    Ir.WithMod m = w.mods()[i];
    if (m.kind() == Ir.WithKind.FUNCTION && m.replacement() != null) {
      return withMods(
          f, w, i + 1, next.withMock(m.function(), new Env.Mock(m.replacement(), null)), k);
    }
    return eval(f, m.value(), v -> withMods(f, w, i + 1, modified(next, m, v), k));
  }

  private static Env modified(Env e, Ir.WithMod m, RegoValue v) {
    return switch (m.kind()) {
      case INPUT -> e.withInput(m.path().length == 0 ? v : Docs.upsert(e.input, m.path(), 0, v));
      case DATA -> e.withData(m.path(), v);
      case FUNCTION -> e.withMock(m.function(), new Env.Mock(null, v));
    };
  }

  // ---- terms ----

  private boolean eval(RegoValue[] f, Ir.T t, VK k) {
    switch (t) {
      case Ir.Const c -> {
        return k.go(c.value());
      }
      case Ir.Local l -> {
        RegoValue v = f[l.slot()];
        if (v == null) {
          throw unsafe(l);
        }
        return k.go(v);
      }
      case Ir.Ref r -> {
        return ref(f, r, k);
      }
      case Ir.Arr a -> {
        return items(f, a.items(), vs -> k.go(RegoArray.wrap(vs)));
      }
      case Ir.SetT s -> {
        return items(f, s.items(), vs -> k.go(RegoSet.of(vs)));
      }
      case Ir.Obj o -> {
        Ir.T[] kv = new Ir.T[o.keys().length * 2];
        for (int i = 0; i < o.keys().length; i++) {
          kv[2 * i] = o.keys()[i];
          kv[2 * i + 1] = o.values()[i];
        }
        return items(
            f,
            kv,
            vs -> {
              RegoObject.Builder b = new RegoObject.Builder(vs.length / 2);
              for (int i = 0; i < vs.length; i += 2) {
                b.put(vs[i], vs[i + 1]);
              }
              return k.go(b.build());
            });
      }
      case Ir.Call c -> {
        return call(f, c, k);
      }
      case Ir.ArrCompr c -> {
        List<RegoValue> out = new ArrayList<>();
        body(f, c.body(), 0, () -> eval(f, c.head(), v -> add(out, v)));
        return k.go(RegoArray.of(out));
      }
      case Ir.SetCompr c -> {
        List<RegoValue> out = new ArrayList<>();
        body(f, c.body(), 0, () -> eval(f, c.head(), v -> add(out, v)));
        return k.go(RegoSet.of(out));
      }
      case Ir.ObjCompr c -> {
        RegoObject.Builder b = new RegoObject.Builder();
        body(
            f,
            c.body(),
            0,
            () ->
                eval(
                    f,
                    c.key(),
                    key ->
                        eval(
                            f,
                            c.value(),
                            val -> {
                              step();
                              RegoValue prev = b.get(key);
                              if (prev != null && !prev.equals(val)) {
                                throw new EvalFailure(
                                    EvalFailure.CONFLICT, null, "object keys must be unique");
                              }
                              b.put(key, val);
                              return false;
                            })));
        return k.go(b.build());
      }
      case Ir.Root r -> throw new EvalFailure(EvalFailure.INTERNAL, null, "bare root document");
    }
  }

  private boolean add(List<RegoValue> out, RegoValue v) {
    step();
    out.add(v);
    return false;
  }

  /**
   * Evaluates {@code ts} (each may have several values) and passes each tuple. Terms are taken left
   * to right, except that one whose variables are still unbound waits until the others (which may
   * bind them, as {@code a[x]} binds x) have run: the order the compiler's safety check assumed.
   */
  private boolean items(RegoValue[] f, Ir.T[] ts, ArrK k) {
    RegoValue[] acc = new RegoValue[ts.length];
    for (int i = 0; i < ts.length; i++) {
      RegoValue v = immediate(f, ts[i]);
      if (v == null) {
        boolean[] done = new boolean[ts.length];
        for (int j = 0; j < i; j++) {
          done[j] = true;
        }
        return itemsFrom(f, ts, done, ts.length - i, acc, k);
      }
      acc[i] = v;
    }
    return k.go(acc);
  }

  private boolean itemsFrom(
      RegoValue[] f, Ir.T[] ts, boolean[] done, int left, RegoValue[] acc, ArrK k) {
    if (left == 0) {
      return k.go(acc.clone());
    }
    int pick = -1;
    for (int j = 0; j < ts.length && pick < 0; j++) {
      if (!done[j] && ready(f, ts[j])) {
        pick = j;
      }
    }
    for (int j = 0; j < ts.length && pick < 0; j++) {
      if (!done[j]) {
        pick = j; // nothing is ready: evaluating it reports the unbound variable
      }
    }
    int i = pick;
    done[i] = true;
    boolean r =
        eval(
            f,
            ts[i],
            v -> {
              acc[i] = v;
              return itemsFrom(f, ts, done, left - 1, acc, k);
            });
    done[i] = false;
    return r;
  }

  /** Whether evaluating {@code t} needs no variable that is still unbound. */
  private static boolean ready(RegoValue[] f, Ir.T t) {
    return switch (t) {
      case Ir.Local l -> f[l.slot()] != null;
      case Ir.Ref r -> ready(f, r.head());
      case Ir.Call c -> allReady(f, c.args());
      case Ir.Arr a -> allReady(f, a.items());
      case Ir.SetT s -> allReady(f, s.items());
      case Ir.Obj o -> allReady(f, o.keys()) && allReady(f, o.values());
      default -> true;
    };
  }

  private static boolean allReady(RegoValue[] f, Ir.T[] ts) {
    for (Ir.T t : ts) {
      if (!ready(f, t)) {
        return false;
      }
    }
    return true;
  }

  /** The value of a constant or bound variable without a continuation; null otherwise. */
  private static RegoValue immediate(RegoValue[] f, Ir.T t) {
    if (t instanceof Ir.Const c) {
      return c.value();
    }
    if (t instanceof Ir.Local l) {
      return f[l.slot()];
    }
    return null;
  }

  private EvalFailure unsafe(Ir.Local l) {
    return new EvalFailure(EvalFailure.INTERNAL, l.pos(), "var " + l.display() + " is unsafe");
  }

  // ---- references ----

  private boolean ref(RegoValue[] f, Ir.Ref r, VK k) {
    if (r.head() == Ir.Root.DATA) {
      return data(f, r.path(), 0, policy.root(), env.data, env.overrides, k);
    }
    if (r.head() == Ir.Root.INPUT) {
      return env.input != null && walk(f, env.input, r.path(), 0, k);
    }
    return eval(f, r.head(), h -> walk(f, h, r.path(), 0, k));
  }

  /** Follows {@code path[i..]} into a value, iterating where a step is an unbound pattern. */
  private boolean walk(RegoValue[] f, RegoValue cur, Ir.T[] path, int i, VK k) {
    if (i == path.length) {
      return k.go(cur);
    }
    Ir.T p = path[i];
    RegoValue key = immediate(f, p);
    if (key != null) {
      RegoValue next = Docs.index(cur, key);
      return next != null && walk(f, next, path, i + 1, k);
    }
    if (isPattern(f, p)) {
      return forEach(cur, (kk, vv) -> unify(f, p, kk, () -> walk(f, vv, path, i + 1, k)));
    }
    return eval(
        f,
        p,
        kv -> {
          RegoValue next = Docs.index(cur, kv);
          return next != null && walk(f, next, path, i + 1, k);
        });
  }

  /** Whether a reference step has unbound variables in pattern position (so it iterates). */
  private static boolean isPattern(RegoValue[] f, Ir.T p) {
    return switch (p) {
      case Ir.Local l -> f[l.slot()] == null;
      case Ir.Arr a -> anyPattern(f, a.items());
      case Ir.Obj o -> anyPattern(f, o.values());
      default -> false;
    };
  }

  private static boolean anyPattern(RegoValue[] f, Ir.T[] ts) {
    for (Ir.T t : ts) {
      if (isPattern(f, t)) {
        return true;
      }
    }
    return false;
  }

  private boolean forEach(RegoValue coll, KV kv) {
    switch (coll) {
      case RegoArray a -> {
        for (int i = 0; i < a.size(); i++) {
          step();
          if (kv.go(RegoNumber.of(i), a.get(i))) {
            return true;
          }
        }
      }
      case RegoObject o -> {
        for (int i = 0; i < o.size(); i++) {
          step();
          if (kv.go(o.key(i), o.value(i))) {
            return true;
          }
        }
      }
      case RegoSet s -> {
        for (int i = 0; i < s.size(); i++) {
          step();
          RegoValue e = s.get(i);
          if (kv.go(e, e)) {
            return true;
          }
        }
      }
      default -> {}
    }
    return false;
  }

  /**
   * Follows {@code path[i..]} under {@code data}: through the rule tree {@code n}, the base
   * document {@code base} and the {@code with} replacements {@code o} at the same place.
   */
  private boolean data(
      RegoValue[] f, Ir.T[] path, int i, RuleNode n, RegoValue base, Overrides o, VK k) {
    if (o != null && o.value != null) {
      return walk(f, o.apply(null), path, i, k);
    }
    if (n == null || n.kind() != RuleNode.Kind.NONE) {
      RegoValue v = extent(n, base, o);
      return v != null && walk(f, v, path, i, k);
    }
    if (i == path.length) {
      RegoValue v = extent(n, base, o);
      return v != null && k.go(v);
    }
    Ir.T p = path[i];
    RegoValue key = immediate(f, p);
    if (key != null) {
      return data(
          f, path, i + 1, n.get(key), Docs.member(base, key), o == null ? null : o.child(key), k);
    }
    if (isPattern(f, p)) {
      TreeSet<RegoValue> keys = new TreeSet<>(dev.agentcompute.rego.value.Values::compare);
      for (RuleNode c : n.children()) {
        keys.add(c.key());
      }
      if (base instanceof RegoObject bo) {
        keys.addAll(bo.keys());
      }
      if (o != null) {
        keys.addAll(o.children.keySet());
      }
      for (RegoValue kk : keys) {
        step();
        RuleNode child = n.get(kk);
        RegoValue childBase = Docs.member(base, kk);
        Overrides childOver = o == null ? null : o.child(kk);
        if (unify(f, p, kk, () -> data(f, path, i + 1, child, childBase, childOver, k))) {
          return true;
        }
      }
      return false;
    }
    return eval(
        f,
        p,
        kv ->
            data(
                f,
                path,
                i + 1,
                n.get(kv),
                Docs.member(base, kv),
                o == null ? null : o.child(kv),
                k));
  }

  /** The whole document at a node: rule values, children and base documents merged. */
  private RegoValue extent(RuleNode n, RegoValue base, Overrides o) {
    if (o != null && o.value != null) {
      return o.apply(null);
    }
    boolean patched = o != null && o.hasChildren();
    if (n == null) {
      return patched ? o.apply(base) : base;
    }
    switch (n.kind()) {
      case COMPLETE, SET -> {
        RegoValue v = ruleValue(n);
        return patched ? o.apply(v) : v;
      }
      case FUNCTION -> {
        return null;
      }
      default -> {}
    }
    if (n.kind() == RuleNode.Kind.OBJECT && !n.hasChildren() && base == null && !patched) {
      return ruleValue(n);
    }
    RegoObject.Builder b =
        base instanceof RegoObject bo ? bo.toBuilder() : new RegoObject.Builder();
    if (n.kind() == RuleNode.Kind.OBJECT) {
      RegoObject dyn = (RegoObject) ruleValue(n);
      for (int i = 0; i < dyn.size(); i++) {
        mergeInto(b, dyn.key(i), dyn.value(i), n);
      }
    }
    for (RuleNode c : n.children()) {
      if (c.kind() == RuleNode.Kind.FUNCTION) {
        continue;
      }
      RegoValue cv = extent(c, Docs.member(base, c.key()), o == null ? null : o.child(c.key()));
      if (cv != null) {
        mergeInto(b, c.key(), cv, n);
      }
    }
    RegoValue out = b.build();
    return patched ? o.apply(out) : out;
  }

  private static void mergeInto(RegoObject.Builder b, RegoValue key, RegoValue v, RuleNode n) {
    RegoValue merged = Docs.merge(b.get(key), v);
    if (merged == null) {
      throw new EvalFailure(
          EvalFailure.CONFLICT,
          null,
          "object keys must be unique (" + n.path() + " defines " + key + " twice)");
    }
    b.put(key, merged);
  }

  // ---- rules ----

  private RegoValue ruleValue(RuleNode n) {
    Env e = env;
    Object c = e.cache[n.index()];
    if (c != null) {
      return c == Env.UNDEFINED ? null : (RegoValue) c;
    }
    RegoValue v =
        switch (n.kind()) {
          case COMPLETE -> complete(n);
          case SET -> set(n);
          case OBJECT -> object(n);
          default -> null;
        };
    e.cache[n.index()] = v == null ? Env.UNDEFINED : v;
    return v;
  }

  private RegoValue complete(RuleNode n) {
    RegoValue[] result = {null};
    RegoValue constant = n.constant();
    for (CompiledRule r : n.rules()) {
      for (Clause c : r.clauses()) {
        boolean stopEarly = c.value() instanceof Ir.Const;
        boolean produced =
            clauseValues(
                c,
                null,
                v -> {
                  if (result[0] == null) {
                    result[0] = v;
                  } else if (!result[0].equals(v)) {
                    throw conflict(n, c.pos());
                  }
                  return stopEarly;
                });
        if (produced) {
          break;
        }
      }
      if (constant != null && result[0] != null) {
        break;
      }
    }
    if (result[0] == null && n.defaultClause() != null) {
      result[0] = defaultValue(n.defaultClause());
    }
    return result[0];
  }

  private static EvalFailure conflict(RuleNode n, Position pos) {
    return new EvalFailure(
        EvalFailure.CONFLICT,
        pos,
        "rule "
            + n.path()
            + " produced conflicting values (complete rules must not produce multiple outputs)");
  }

  private RegoValue set(RuleNode n) {
    List<RegoValue> elems = new ArrayList<>();
    for (CompiledRule r : n.rules()) {
      clauseValues(r.main(), null, v -> add(elems, v));
    }
    return RegoSet.of(elems);
  }

  private RegoValue object(RuleNode n) {
    ObjectTree tree = new ObjectTree();
    for (CompiledRule r : n.rules()) {
      Clause c = r.main();
      RegoValue[] fr = new RegoValue[c.slots()];
      enter(c.pos());
      try {
        body(
            fr,
            c.body(),
            0,
            () ->
                items(
                    fr,
                    c.tail(),
                    keys ->
                        eval(
                            fr,
                            c.value(),
                            v -> {
                              step();
                              boolean ok = r.contains() ? tree.add(keys, v) : tree.put(keys, v);
                              if (!ok) {
                                throw new EvalFailure(
                                    EvalFailure.CONFLICT,
                                    c.pos(),
                                    "object keys must be unique (rule "
                                        + n.path()
                                        + " produced conflicting values)");
                              }
                              return false;
                            })));
      } finally {
        depth--;
      }
    }
    return tree.build();
  }

  private RegoValue defaultValue(Clause c) {
    RegoValue[] fr = new RegoValue[c.slots()];
    RegoValue[] out = {null};
    eval(
        fr,
        c.value(),
        v -> {
          out[0] = v;
          return true;
        });
    return out[0];
  }

  /**
   * Evaluates one clause, passing each head value to {@code onValue}; {@code args} (functions) are
   * unified with the parameters first. Returns whether any value was produced.
   */
  private boolean clauseValues(Clause c, RegoValue[] args, VK onValue) {
    RegoValue[] fr = new RegoValue[c.slots()];
    boolean[] produced = {false};
    enter(c.pos());
    try {
      K run =
          () ->
              body(
                  fr,
                  c.body(),
                  0,
                  () ->
                      eval(
                          fr,
                          c.value(),
                          v -> {
                            produced[0] = true;
                            return onValue.go(v);
                          }));
      if (args == null) {
        run.go();
      } else {
        unifyArgs(fr, c.args(), args, 0, run);
      }
    } finally {
      depth--;
    }
    return produced[0];
  }

  private boolean unifyArgs(RegoValue[] fr, Ir.T[] params, RegoValue[] args, int i, K k) {
    if (i == params.length) {
      return k.go();
    }
    return unify(fr, params[i], args[i], () -> unifyArgs(fr, params, args, i + 1, k));
  }

  // ---- calls ----

  private boolean call(RegoValue[] f, Ir.Call c, VK k) {
    return items(f, c.args(), vals -> invoke(c.fn(), vals, c.pos(), k));
  }

  private boolean invoke(Ir.Fn fn, RegoValue[] args, Position pos, VK k) {
    if (env.mocks != null) {
      Env.Mock m = env.mocks.get(fn.name());
      if (m != null) {
        if (m.function() == null) {
          return k.go(m.value());
        }
        fn = m.function();
      }
    }
    return switch (fn) {
      case Ir.BuiltinFn b -> builtin(b.builtin(), args, pos, k);
      case Ir.UserFn u -> function(u.node(), args, pos, k);
    };
  }

  private boolean builtin(Builtin b, RegoValue[] args, Position pos, VK k) {
    step();
    RegoValue v;
    try {
      v = b.function().call(this, args);
    } catch (BuiltinError e) {
      if (!strict) {
        return false;
      }
      String code = e.kind() == BuiltinError.Kind.TYPE ? EvalFailure.TYPE : EvalFailure.BUILTIN;
      throw new EvalFailure(code, pos, b.name() + ": " + e.getMessage());
    } catch (EvalFailure e) {
      throw e;
    } catch (RuntimeException e) {
      if (!strict) {
        return false;
      }
      throw new EvalFailure(EvalFailure.BUILTIN, pos, b.name() + ": " + e.getMessage());
    }
    if (v == null) {
      return false;
    }
    if (b.relation()) {
      RegoArray outs = (RegoArray) v;
      for (int i = 0; i < outs.size(); i++) {
        step();
        if (k.go(outs.get(i))) {
          return true;
        }
      }
      return false;
    }
    return k.go(v);
  }

  private boolean function(RuleNode n, RegoValue[] args, Position pos, VK k) {
    if (args.length != n.arity()) {
      throw new EvalFailure(EvalFailure.INTERNAL, pos, n.path() + ": arity mismatch");
    }
    RegoValue[] result = {null};
    RegoValue constant = n.constant();
    for (CompiledRule r : n.rules()) {
      for (Clause c : r.clauses()) {
        boolean stopEarly = c.value() instanceof Ir.Const;
        boolean produced =
            clauseValues(
                c,
                args,
                v -> {
                  if (result[0] == null) {
                    result[0] = v;
                  } else if (!result[0].equals(v)) {
                    throw new EvalFailure(
                        EvalFailure.CONFLICT,
                        pos,
                        "function "
                            + n.path()
                            + " produced conflicting values for the same inputs (functions must not produce multiple outputs for same inputs)");
                  }
                  return stopEarly;
                });
        if (produced) {
          break;
        }
      }
      if (constant != null && result[0] != null) {
        break;
      }
    }
    if (result[0] == null && n.defaultClause() != null) {
      result[0] = defaultValue(n.defaultClause());
    }
    return result[0] != null && k.go(result[0]);
  }

  // ---- unification ----

  /** Matches pattern {@code p} against the ground value {@code v}, binding its variables. */
  private boolean unify(RegoValue[] f, Ir.T p, RegoValue v, K k) {
    switch (p) {
      case Ir.Const c -> {
        return c.value().equals(v) && k.go();
      }
      case Ir.Local l -> {
        RegoValue cur = f[l.slot()];
        if (cur != null) {
          return cur.equals(v) && k.go();
        }
        f[l.slot()] = v;
        boolean r = k.go();
        f[l.slot()] = null;
        return r;
      }
      case Ir.Arr a -> {
        return v instanceof RegoArray arr
            && arr.size() == a.items().length
            && unifyItems(f, a.items(), arr, 0, k);
      }
      case Ir.Obj o -> {
        return v instanceof RegoObject obj
            && obj.size() == o.keys().length
            && unifyMembers(f, o, obj, 0, k);
      }
      default -> {
        return eval(f, p, pv -> pv.equals(v) && k.go());
      }
    }
  }

  private boolean unifyItems(RegoValue[] f, Ir.T[] ps, RegoArray arr, int i, K k) {
    if (i == ps.length) {
      return k.go();
    }
    return unify(f, ps[i], arr.get(i), () -> unifyItems(f, ps, arr, i + 1, k));
  }

  private boolean unifyMembers(RegoValue[] f, Ir.Obj o, RegoObject obj, int i, K k) {
    if (i == o.keys().length) {
      return k.go();
    }
    return eval(
        f,
        o.keys()[i],
        key -> {
          RegoValue val = obj.get(key);
          return val != null
              && unify(f, o.values()[i], val, () -> unifyMembers(f, o, obj, i + 1, k));
        });
  }

  /** {@code a = b}: evaluates whichever side can be evaluated and matches the other against it. */
  private boolean unifyTerms(RegoValue[] f, Ir.T a, Ir.T b, K k) {
    if (evaluable(f, a)) {
      return eval(f, a, av -> unify(f, b, av, k));
    }
    if (evaluable(f, b)) {
      return eval(f, b, bv -> unify(f, a, bv, k));
    }
    if (a instanceof Ir.Arr x && b instanceof Ir.Arr y) {
      int n = x.items().length;
      return n == y.items().length && unifyPairs(f, x.items(), y.items(), new boolean[n], n, k);
    }
    if (a instanceof Ir.Obj x && b instanceof Ir.Obj y) {
      return unifyObjects(f, x, y, k);
    }
    throw new EvalFailure(EvalFailure.INTERNAL, null, "cannot unify two unbound patterns");
  }

  private boolean unifyPairs(RegoValue[] f, Ir.T[] xs, Ir.T[] ys, boolean[] done, int left, K k) {
    if (left == 0) {
      return k.go();
    }
    int pick = -1;
    for (int j = 0; j < xs.length && pick < 0; j++) {
      if (!done[j] && (evaluable(f, xs[j]) || evaluable(f, ys[j]))) {
        pick = j;
      }
    }
    for (int j = 0; j < xs.length && pick < 0; j++) {
      if (!done[j]) {
        pick = j;
      }
    }
    int j = pick;
    done[j] = true;
    boolean r = unifyTerms(f, xs[j], ys[j], () -> unifyPairs(f, xs, ys, done, left - 1, k));
    done[j] = false;
    return r;
  }

  private boolean unifyObjects(RegoValue[] f, Ir.Obj x, Ir.Obj y, K k) {
    int n = x.keys().length;
    if (n != y.keys().length) {
      return false;
    }
    return items(
        f,
        x.keys(),
        xk ->
            items(
                f,
                y.keys(),
                yk -> {
                  Ir.T[] ys = new Ir.T[n];
                  for (int i = 0; i < n; i++) {
                    int j = indexOf(yk, xk[i]);
                    if (j < 0) {
                      return false;
                    }
                    ys[i] = y.values()[j];
                  }
                  return unifyPairs(f, x.values(), ys, new boolean[n], n, k);
                }));
  }

  private static int indexOf(RegoValue[] vs, RegoValue v) {
    for (int i = 0; i < vs.length; i++) {
      if (vs[i].equals(v)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code t} can be evaluated now (references may still iterate to bind variables). */
  private static boolean evaluable(RegoValue[] f, Ir.T t) {
    return switch (t) {
      case Ir.Local l -> f[l.slot()] != null;
      case Ir.Arr a -> allEvaluable(f, a.items());
      case Ir.SetT s -> allEvaluable(f, s.items());
      case Ir.Obj o -> allEvaluable(f, o.keys()) && allEvaluable(f, o.values());
      default -> true;
    };
  }

  private static boolean allEvaluable(RegoValue[] f, Ir.T[] ts) {
    for (Ir.T t : ts) {
      if (!evaluable(f, t)) {
        return false;
      }
    }
    return true;
  }
}
