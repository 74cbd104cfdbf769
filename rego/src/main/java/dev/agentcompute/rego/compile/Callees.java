package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.lib.Builtin;
import dev.agentcompute.rego.lib.Builtins;
import dev.agentcompute.rego.syntax.Expr;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.syntax.Term;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Resolves what calls and {@code with} modifiers name: a builtin, a function rule (through the
 * package, an import or {@code data}), or a document under {@code input} or {@code data}. Names
 * declared as variables in the current scope never name functions.
 */
final class Callees {
  private final Resolver.Names names;
  private final RuleNode root;
  private final List<Problem> problems;

  Callees(Resolver.Names names, RuleNode root, List<Problem> problems) {
    this.names = names;
    this.root = root;
    this.problems = problems;
  }

  private void error(String code, Position pos, String message) {
    problems.add(new Problem(code, pos, message));
  }

  /**
   * One {@code with} modifier; {@code value} resolves its value term (not asked when the value
   * names a replacement function). Null after a problem.
   */
  Ir.WithMod with(Expr.With w, Supplier<Ir.T> value, Predicate<String> declared) {
    List<String> path = dottedName(w.target());
    if (path == null) {
      error(
          Codes.COMPILE,
          w.target().pos(),
          "with target must be a reference to input, data or a function");
      return null;
    }
    String first = path.get(0);
    if (!declared.test(first) && names.imports().containsKey(first)) {
      List<String> expanded = new ArrayList<>(importNames(names.imports().get(first)));
      expanded.addAll(path.subList(1, path.size()));
      path = expanded;
      first = path.get(0);
    } else if (!declared.test(first) && names.ruleNames().contains(first)) {
      List<String> expanded = new ArrayList<>(List.of("data"));
      expanded.addAll(names.pkg());
      expanded.addAll(path);
      path = expanded;
      first = "data";
    }
    if (first.equals("input")) {
      return new Ir.WithMod(
          Ir.WithKind.INPUT,
          strings(path.subList(1, path.size())),
          null,
          null,
          value.get(),
          w.pos());
    }
    if (first.equals("data")) {
      RuleNode n = nodeAt(path.subList(1, path.size()));
      if (n != null && n.kind() == RuleNode.Kind.FUNCTION) {
        return mock(w, n.path(), n.arity(), value, declared);
      }
      return new Ir.WithMod(
          Ir.WithKind.DATA,
          strings(path.subList(1, path.size())),
          null,
          null,
          value.get(),
          w.pos());
    }
    String name = String.join(".", path);
    Builtin b = Builtins.lookup(name);
    if (b == null) {
      error(
          Codes.COMPILE,
          w.target().pos(),
          "with keyword target " + name + " is not input, data or a known function");
      return null;
    }
    return mock(w, b.name(), b.arity(), value, declared);
  }

  /** Replaces function {@code name} by the function the value names, or by the value itself. */
  private Ir.WithMod mock(
      Expr.With w, String name, int arity, Supplier<Ir.T> value, Predicate<String> declared) {
    Ir.Fn fn = replacement(w.value(), declared);
    if (fn == null) {
      return new Ir.WithMod(Ir.WithKind.FUNCTION, null, name, null, value.get(), w.pos());
    }
    if (fn.arity() != arity) {
      error(
          Codes.COMPILE,
          w.value().pos(),
          "with keyword replacing "
              + name
              + " (arity "
              + arity
              + ") with "
              + fn.name()
              + " (arity "
              + fn.arity()
              + ")");
    }
    return new Ir.WithMod(
        Ir.WithKind.FUNCTION, null, name, fn, new Ir.Const(RegoString.EMPTY), w.pos());
  }

  /** The function a mock value names, if it names one (else the value is a constant result). */
  private Ir.Fn replacement(Term value, Predicate<String> declared) {
    List<String> path = dottedName(value);
    if (path == null || declared.test(path.get(0))) {
      return null;
    }
    String first = path.get(0);
    if (names.imports().containsKey(first)) {
      List<String> expanded = new ArrayList<>(importNames(names.imports().get(first)));
      expanded.addAll(path.subList(1, path.size()));
      path = expanded;
      first = path.get(0);
    }
    if (names.ruleNames().contains(first)) {
      List<String> p = new ArrayList<>(names.pkg());
      p.addAll(path);
      RuleNode n = nodeAt(p);
      return n != null && n.kind() == RuleNode.Kind.FUNCTION ? new Ir.UserFn(n) : null;
    }
    if (first.equals("data")) {
      RuleNode n = nodeAt(path.subList(1, path.size()));
      return n != null && n.kind() == RuleNode.Kind.FUNCTION ? new Ir.UserFn(n) : null;
    }
    Builtin b = Builtins.lookup(String.join(".", path));
    return b == null ? null : new Ir.BuiltinFn(b);
  }

  private static RegoValue[] strings(List<String> path) {
    RegoValue[] out = new RegoValue[path.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = RegoString.of(path.get(i));
    }
    return out;
  }

  private RuleNode nodeAt(List<String> path) {
    RuleNode n = root;
    for (String s : path) {
      n = n == null ? null : n.get(RegoString.of(s));
    }
    return n;
  }

  /** {@code a.b["c"]} as names; null if the term is not a reference made of names. */
  static List<String> dottedName(Term t) {
    if (t instanceof Term.Var v) {
      return List.of(v.name());
    }
    if (t instanceof Term.Ref r && r.head() instanceof Term.Var v) {
      List<String> out = new ArrayList<>();
      out.add(v.name());
      for (Term p : r.path()) {
        if (!(p instanceof Term.Scalar s) || !(s.value() instanceof RegoString str)) {
          return null;
        }
        out.add(str.value());
      }
      return out;
    }
    return null;
  }

  private static List<String> importNames(List<Term> path) {
    List<String> out = new ArrayList<>();
    for (Term t : path) {
      out.add(
          t instanceof Term.Var v ? v.name() : ((RegoString) ((Term.Scalar) t).value()).value());
    }
    return out;
  }

  /** The function a call names; null (after recording a problem) if there is none. */
  Ir.Fn function(Term.Call c, Predicate<String> declared) {
    if (c.operator() != null) {
      Builtin b = Builtins.lookup(c.operator());
      if (b == null) {
        error(Codes.TYPE, c.pos(), "undefined function " + c.operator());
        return null;
      }
      return new Ir.BuiltinFn(b);
    }
    List<String> path = dottedName(c.target());
    if (path == null) {
      error(Codes.TYPE, c.pos(), "illegal call target");
      return null;
    }
    String first = path.get(0);
    String display = String.join(".", path);
    if (declared.test(first)) {
      error(
          Codes.TYPE, c.pos(), "undefined function " + display + " (" + first + " is a variable)");
      return null;
    }
    List<String> dataPath = null;
    if (names.imports().containsKey(first)) {
      List<String> expanded = importNames(names.imports().get(first));
      if (!expanded.get(0).equals("data")) {
        error(Codes.TYPE, c.pos(), "undefined function " + display);
        return null;
      }
      dataPath = new ArrayList<>(expanded.subList(1, expanded.size()));
      dataPath.addAll(path.subList(1, path.size()));
    } else if (names.ruleNames().contains(first)) {
      dataPath = new ArrayList<>(names.pkg());
      dataPath.addAll(path);
    } else if (first.equals("data")) {
      dataPath = path.subList(1, path.size());
    }
    if (dataPath != null) {
      RuleNode n = nodeAt(dataPath);
      if (n == null || n.kind() != RuleNode.Kind.FUNCTION) {
        error(Codes.TYPE, c.pos(), "undefined function data." + String.join(".", dataPath));
        return null;
      }
      return new Ir.UserFn(n);
    }
    if (Resolver.isPrint(c)) {
      return null; // print statements are compiled out (EnablePrintStatements(false))
    }
    Builtin b = Builtins.lookup(display);
    if (b == null) {
      String why = Builtins.unavailableReason(display);
      error(
          Codes.TYPE,
          c.pos(),
          "undefined function " + display + (why == null ? "" : " (" + why + ")"));
      return null;
    }
    return new Ir.BuiltinFn(b);
  }
}
