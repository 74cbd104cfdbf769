package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Expr;
import dev.agentcompute.rego.syntax.Module;
import dev.agentcompute.rego.syntax.Parser;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.syntax.RegoSyntaxError;
import dev.agentcompute.rego.syntax.Rule;
import dev.agentcompute.rego.syntax.Term;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Compiles Rego v1 modules: parses them, places every rule in the {@link RuleNode} tree by its
 * package and head reference, checks that rules at one place agree in kind, resolves and orders
 * every clause, and rejects recursion. All errors found are reported together.
 */
public final class Compiler {
  private final List<Problem> problems = new ArrayList<>();
  private final RuleNode root = new RuleNode(null, null);

  private Compiler() {}

  /** A rule waiting for its clauses to be compiled. */
  private record Placed(Module module, Rule rule, RuleNode node, List<Term> tail) {}

  public static CompiledPolicy compile(SortedMap<String, String> files) throws CompileFailure {
    return new Compiler().run(files);
  }

  /** Compiles a query against a policy; its free variables are the result columns. */
  public static CompiledQuery compileQuery(CompiledPolicy policy, String file, String query)
      throws CompileFailure {
    List<Problem> problems = new ArrayList<>();
    List<Expr> exprs;
    try {
      exprs = Parser.parseQuery(file, query);
    } catch (RegoSyntaxError e) {
      throw new CompileFailure(List.of(new Problem(Codes.PARSE, e.position(), e.detail())));
    }
    Resolver res = new Resolver(Resolver.Names.QUERY, policy.root(), problems);
    Ir.S[] body = res.body(exprs);
    Ir.Local[] locals = res.locals();
    Safety safety = new Safety(problems);
    Ir.S[] ordered = safety.order(body, new BitSet(), new BitSet(), new BitSet(), locals);
    new Recursion(problems).checkQuery(ordered);
    fail(problems);
    List<Ir.Local> outputs = new ArrayList<>(res.freeVars().values());
    outputs.sort(Comparator.comparing(Ir.Local::name));
    return new CompiledQuery(policy, ordered, res.slots(), List.copyOf(outputs));
  }

  /** A query whose one result column, {@code value}, is the document at {@code data.<path>}. */
  public static CompiledQuery compileDataRef(CompiledPolicy policy, List<RegoValue> path) {
    Position pos = new Position("query", 1, 1);
    Ir.Local value = new Ir.Local(0, "value", pos);
    Ir.T[] steps = new Ir.T[path.size()];
    for (int i = 0; i < steps.length; i++) {
      steps[i] = new Ir.Const(path.get(i));
    }
    Ir.S s = new Ir.Unify(value, new Ir.Ref(Ir.Root.DATA, steps, steps.length, pos), pos);
    return new CompiledQuery(policy, new Ir.S[] {s}, 1, List.of(value));
  }

  private static void fail(List<Problem> problems) throws CompileFailure {
    if (!problems.isEmpty()) {
      List<Problem> sorted = new ArrayList<>(new java.util.LinkedHashSet<>(problems));
      sorted.sort(
          Comparator.comparing((Problem p) -> p.pos().file())
              .thenComparingInt(p -> p.pos().line())
              .thenComparingInt(p -> p.pos().col()));
      throw new CompileFailure(sorted);
    }
  }

  private CompiledPolicy run(SortedMap<String, String> files) throws CompileFailure {
    List<Module> modules = new ArrayList<>();
    for (Map.Entry<String, String> f : files.entrySet()) {
      Annotations.check(f.getKey(), f.getValue(), problems);
      try {
        modules.add(Parser.parseModule(f.getKey(), f.getValue()));
      } catch (RegoSyntaxError e) {
        problems.add(new Problem(Codes.PARSE, e.position(), e.detail()));
      }
    }
    fail(problems);
    Map<List<String>, Set<String>> ruleNames = new HashMap<>();
    List<Placed> placed = new ArrayList<>();
    for (Module m : modules) {
      Set<String> names = ruleNames.computeIfAbsent(m.packagePath(), k -> new HashSet<>());
      for (Rule r : m.rules()) {
        names.add(((Term.Var) r.ref().head()).name());
        Placed p = place(m, r);
        if (p != null) {
          placed.add(p);
        }
      }
    }
    checkLeaves(root);
    fail(problems);
    for (Placed p : placed) {
      compileRule(p, names(p.module(), ruleNames));
    }
    fail(problems);
    new Recursion(problems).check(root);
    fail(problems);
    constants(root);
    int count = number(root, 0);
    List<String> fileNames = new ArrayList<>(files.keySet());
    return new CompiledPolicy(
        root, count, List.copyOf(fileNames), new java.util.concurrent.ConcurrentHashMap<>());
  }

  /** Marks nodes whose rules all produce one constant (see {@link RuleNode#constant()}). */
  private static void constants(RuleNode n) {
    if (n.kind() == RuleNode.Kind.COMPLETE || n.kind() == RuleNode.Kind.FUNCTION) {
      RegoValue same = null;
      boolean ok = !n.rules().isEmpty();
      for (CompiledRule r : n.rules()) {
        for (Clause c : r.clauses()) {
          if (!(c.value() instanceof Ir.Const k) || (same != null && !same.equals(k.value()))) {
            ok = false;
          } else {
            same = k.value();
          }
        }
      }
      n.setConstant(ok ? same : null);
    }
    for (RuleNode c : n.children()) {
      constants(c);
    }
  }

  private int number(RuleNode n, int next) {
    n.setIndex(next++);
    for (RuleNode c : n.children()) {
      next = number(c, next);
    }
    return next;
  }

  private Resolver.Names names(Module m, Map<List<String>, Set<String>> ruleNames) {
    Map<String, List<Term>> imports = new LinkedHashMap<>();
    for (Module.Import imp : m.imports()) {
      String alias = imp.alias();
      if (alias == null) {
        Term last = imp.path().get(imp.path().size() - 1);
        alias =
            last instanceof Term.Var v
                ? v.name()
                : ((RegoString) ((Term.Scalar) last).value()).value();
      }
      imports.put(alias, imp.path());
    }
    return new Resolver.Names(m.packagePath(), ruleNames.get(m.packagePath()), imports);
  }

  // ---- placing rules ----

  private Placed place(Module m, Rule r) {
    RuleNode n = root;
    for (String p : m.packagePath()) {
      n = n.child(RegoString.of(p));
    }
    n = n.child(RegoString.of(((Term.Var) r.ref().head()).name()));
    List<Term> path = r.ref().path();
    int i = 0;
    while (i < path.size()) {
      RegoValue v = groundValue(path.get(i));
      if (v == null) {
        break;
      }
      n = n.child(v);
      i++;
    }
    List<Term> tail = path.subList(i, path.size());
    RuleNode.Kind kind;
    if (r.isFunction()) {
      if (!tail.isEmpty()) {
        error(Codes.TYPE, r.pos(), "function reference heads must be ground");
        return null;
      }
      kind = RuleNode.Kind.FUNCTION;
    } else if (!tail.isEmpty()) {
      kind = RuleNode.Kind.OBJECT;
    } else {
      kind = r.kind() == Rule.Kind.CONTAINS ? RuleNode.Kind.SET : RuleNode.Kind.COMPLETE;
    }
    if (r.isDefault() && kind != RuleNode.Kind.COMPLETE && kind != RuleNode.Kind.FUNCTION) {
      error(Codes.TYPE, r.pos(), "default rules must be complete rules or functions: " + n.path());
      return null;
    }
    if (!r.elses().isEmpty() && kind != RuleNode.Kind.COMPLETE && kind != RuleNode.Kind.FUNCTION) {
      error(Codes.PARSE, r.pos(), "else keyword cannot be used on rules with variables in head");
      return null;
    }
    if (n.kind() != RuleNode.Kind.NONE && n.kind() != kind) {
      error(Codes.TYPE, r.pos(), "conflicting rules " + n.path() + " found");
      return null;
    }
    if (kind == RuleNode.Kind.FUNCTION) {
      int arity = r.args().size();
      if (n.arity() >= 0 && n.arity() != arity) {
        error(
            Codes.TYPE,
            r.pos(),
            "conflicting rules " + n.path() + " found (functions of different arity)");
        return null;
      }
      n.setArity(arity);
    }
    n.setKind(kind);
    n.notePosition(r.pos());
    if (r.isDefault()) {
      if (n.defaultClause() != null) {
        error(Codes.TYPE, r.pos(), "multiple default rules " + n.path() + " found");
        return null;
      }
      n.setDefault(new Clause(new Ir.S[0], null, new Ir.T[0], null, 0, r.pos())); // placeholder
    }
    return new Placed(m, r, n, tail);
  }

  /** A term a function parameter may be: a variable, scalar, or array/object of those. */
  private static boolean isPattern(Term t) {
    return switch (t) {
      case Term.Var v -> true;
      case Term.Scalar s -> true;
      case Term.ArrayTerm a -> a.items().stream().allMatch(Compiler::isPattern);
      case Term.ObjectTerm o ->
          o.keys().stream().allMatch(k -> k instanceof Term.Scalar)
              && o.values().stream().allMatch(Compiler::isPattern);
      default -> false;
    };
  }

  /** The value of a term without variables, references or calls; null otherwise. */
  static RegoValue groundValue(Term t) {
    return switch (t) {
      case Term.Scalar s -> s.value();
      case Term.ArrayTerm a -> {
        RegoValue[] items = new RegoValue[a.items().size()];
        for (int i = 0; i < items.length; i++) {
          if ((items[i] = groundValue(a.items().get(i))) == null) {
            yield null;
          }
        }
        yield dev.agentcompute.rego.value.RegoArray.wrap(items);
      }
      case Term.SetTerm s -> {
        List<RegoValue> items = new ArrayList<>();
        for (Term x : s.items()) {
          RegoValue v = groundValue(x);
          if (v == null) {
            yield null;
          }
          items.add(v);
        }
        yield dev.agentcompute.rego.value.RegoSet.of(items);
      }
      case Term.ObjectTerm o -> {
        dev.agentcompute.rego.value.RegoObject.Builder b =
            new dev.agentcompute.rego.value.RegoObject.Builder();
        for (int i = 0; i < o.keys().size(); i++) {
          RegoValue k = groundValue(o.keys().get(i));
          RegoValue v = groundValue(o.values().get(i));
          if (k == null || v == null) {
            yield null;
          }
          b.put(k, v);
        }
        yield b.build();
      }
      default -> null;
    };
  }

  /** Complete, set and function nodes are leaves: nothing may be defined below them. */
  private void checkLeaves(RuleNode n) {
    if (n.hasChildren() && n.kind() != RuleNode.Kind.NONE && n.kind() != RuleNode.Kind.OBJECT) {
      List<String> below = new ArrayList<>();
      for (RuleNode c : n.children()) {
        below.add(c.path());
      }
      error(Codes.TYPE, n.position(), "rule " + n.path() + " conflicts with " + below);
    }
    for (RuleNode c : n.children()) {
      checkLeaves(c);
    }
  }

  private void error(String code, Position pos, String message) {
    problems.add(new Problem(code, pos, message));
  }

  // ---- clauses ----

  private void compileRule(Placed p, Resolver.Names names) {
    Rule r = p.rule();
    if (r.isDefault()) {
      p.node().setDefault(clause(names, r, List.of(), r.value(), List.of(), r.args()));
      return;
    }
    List<Clause> clauses = new ArrayList<>();
    clauses.add(clause(names, r, r.body(), r.value(), p.tail(), r.args()));
    for (Rule.Else e : r.elses()) {
      clauses.add(clause(names, r, e.body(), e.value(), p.tail(), r.args()));
    }
    p.node()
        .addRule(new CompiledRule(List.copyOf(clauses), r.kind() == Rule.Kind.CONTAINS, r.pos()));
  }

  private Clause clause(
      Resolver.Names names, Rule r, List<Expr> body, Term value, List<Term> tail, List<Term> args) {
    Resolver res = new Resolver(names, root, problems);
    Ir.T[] argsIr = null;
    if (args != null) {
      for (Term a : args) {
        if (!isPattern(a)) {
          error(
              Codes.COMPILE,
              a.pos(),
              "function arguments must be variables, constants, arrays or objects, not references or calls");
        }
      }
      args.forEach(res::declareArg);
      argsIr = res.terms(args);
    }
    Ir.S[] bodyIr = res.body(body);
    Ir.T[] tailIr = res.terms(tail);
    Ir.T valueIr = value == null ? new Ir.Const(RegoBoolean.TRUE) : res.term(value);
    Ir.Local[] locals = res.locals();
    BitSet bound = new BitSet();
    if (argsIr != null) {
      IrVars.all(argsIr, bound);
    }
    BitSet visible = (BitSet) bound.clone();
    BitSet head = new BitSet();
    IrVars.all(tailIr, head);
    IrVars.all(valueIr, head);
    Safety safety = new Safety(problems);
    Ir.S[] ordered = safety.order(bodyIr, bound, visible, head, locals);
    BitSet outer = (BitSet) visible.clone();
    for (Ir.S s : ordered) {
      IrVars.top(s, outer);
    }
    for (int i = 0; i < tailIr.length; i++) {
      tailIr[i] = safety.close(tailIr[i], outer, locals);
    }
    valueIr = safety.close(valueIr, outer, locals);
    Ir.T[] heads = java.util.Arrays.copyOf(tailIr, tailIr.length + 1);
    heads[tailIr.length] = valueIr;
    safety.checkHead(bound, outer, locals, heads);
    return new Clause(ordered, argsIr, tailIr, valueIr, res.slots(), r.pos());
  }
}
