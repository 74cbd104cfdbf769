package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rejects rules that depend on themselves (Rego has no recursion). A reference depends on the rule
 * it reaches, or, when it stops at or iterates over an inner node, on every rule below it.
 */
final class Recursion {
  private final List<Problem> problems;
  private final Map<RuleNode, Set<RuleNode>> deps = new HashMap<>();

  Recursion(List<Problem> problems) {
    this.problems = problems;
  }

  void check(RuleNode root) {
    List<RuleNode> nodes = new ArrayList<>();
    collect(root, nodes);
    for (RuleNode n : nodes) {
      Set<RuleNode> d = new LinkedHashSet<>();
      for (CompiledRule r : n.rules()) {
        for (Clause c : r.clauses()) {
          clause(c, root, d);
        }
      }
      if (n.defaultClause() != null) {
        clause(n.defaultClause(), root, d);
      }
      deps.put(n, d);
    }
    Map<RuleNode, Integer> state = new HashMap<>();
    for (RuleNode n : nodes) {
      if (!state.containsKey(n)) {
        List<RuleNode> stack = new ArrayList<>();
        if (visit(n, state, stack)) {
          return;
        }
      }
    }
  }

  /** A query may not be recursive, but it can reach anything; nothing to check beyond rules. */
  void checkQuery(Ir.S[] body) {}

  private static void collect(RuleNode n, List<RuleNode> out) {
    if (n.kind() != RuleNode.Kind.NONE) {
      out.add(n);
    }
    for (RuleNode c : n.children()) {
      collect(c, out);
    }
  }

  /** Depth-first search; true once a cycle has been reported. */
  private boolean visit(RuleNode n, Map<RuleNode, Integer> state, List<RuleNode> stack) {
    state.put(n, 1);
    stack.add(n);
    for (RuleNode d : deps.getOrDefault(n, Set.of())) {
      Integer s = state.get(d);
      if (s != null && s == 1) {
        report(stack.subList(stack.indexOf(d), stack.size()), d);
        return true;
      }
      if (s == null && visit(d, state, stack)) {
        return true;
      }
    }
    stack.remove(stack.size() - 1);
    state.put(n, 2);
    return false;
  }

  private void report(List<RuleNode> cycle, RuleNode start) {
    StringBuilder b = new StringBuilder();
    for (RuleNode n : cycle) {
      b.append(n.path()).append(" -> ");
    }
    b.append(start.path());
    Position pos =
        start.rules().isEmpty() ? start.defaultClause().pos() : start.rules().get(0).pos();
    problems.add(new Problem(Codes.RECURSION, pos, "rule " + start.path() + " is recursive: " + b));
  }

  private static void clause(Clause c, RuleNode root, Set<RuleNode> out) {
    for (Ir.S s : c.body()) {
      stmt(s, root, out);
    }
    for (Ir.T t : c.tail()) {
      term(t, root, out);
    }
    if (c.value() != null) {
      term(c.value(), root, out);
    }
    if (c.args() != null) {
      for (Ir.T t : c.args()) {
        term(t, root, out);
      }
    }
  }

  private static void stmt(Ir.S s, RuleNode root, Set<RuleNode> out) {
    switch (s) {
      case Ir.Unify u -> {
        term(u.a(), root, out);
        term(u.b(), root, out);
      }
      case Ir.CallS c -> {
        term(c.call(), root, out);
        if (c.out() != null) {
          term(c.out(), root, out);
        }
      }
      case Ir.TermS t -> term(t.term(), root, out);
      case Ir.Not n -> stmt(n.inner(), root, out);
      case Ir.SomeIn si -> {
        if (si.key() != null) {
          term(si.key(), root, out);
        }
        term(si.value(), root, out);
        term(si.domain(), root, out);
      }
      case Ir.Every e -> {
        term(e.domain(), root, out);
        for (Ir.S x : e.body()) {
          stmt(x, root, out);
        }
      }
      case Ir.With w -> {
        stmt(w.inner(), root, out);
        for (Ir.WithMod m : w.mods()) {
          term(m.value(), root, out);
          if (m.replacement() instanceof Ir.UserFn f) {
            out.add(f.node());
          }
        }
      }
    }
  }

  private static void term(Ir.T t, RuleNode root, Set<RuleNode> out) {
    switch (t) {
      case Ir.Ref r -> {
        term(r.head(), root, out);
        for (Ir.T p : r.path()) {
          term(p, root, out);
        }
        if (r.head() == Ir.Root.DATA) {
          dataRef(r, root, out);
        }
      }
      case Ir.Arr a -> each(a.items(), root, out);
      case Ir.SetT s -> each(s.items(), root, out);
      case Ir.Obj o -> {
        each(o.keys(), root, out);
        each(o.values(), root, out);
      }
      case Ir.Call c -> {
        each(c.args(), root, out);
        if (c.fn() instanceof Ir.UserFn f) {
          out.add(f.node());
        }
      }
      case Ir.ArrCompr c -> {
        term(c.head(), root, out);
        for (Ir.S s : c.body()) {
          stmt(s, root, out);
        }
      }
      case Ir.SetCompr c -> {
        term(c.head(), root, out);
        for (Ir.S s : c.body()) {
          stmt(s, root, out);
        }
      }
      case Ir.ObjCompr c -> {
        term(c.key(), root, out);
        term(c.value(), root, out);
        for (Ir.S s : c.body()) {
          stmt(s, root, out);
        }
      }
      default -> {}
    }
  }

  private static void each(Ir.T[] ts, RuleNode root, Set<RuleNode> out) {
    for (Ir.T t : ts) {
      term(t, root, out);
    }
  }

  private static void dataRef(Ir.Ref r, RuleNode root, Set<RuleNode> out) {
    RuleNode n = root;
    for (Ir.T p : r.path()) {
      if (n.kind() != RuleNode.Kind.NONE && n.kind() != RuleNode.Kind.OBJECT) {
        out.add(n);
        return;
      }
      if (!(p instanceof Ir.Const c)) {
        subtree(n, out);
        return;
      }
      RuleNode next = n.get(c.value());
      if (next == null) {
        if (n.kind() == RuleNode.Kind.OBJECT) {
          out.add(n);
        }
        return;
      }
      if (n.kind() == RuleNode.Kind.OBJECT) {
        out.add(n);
      }
      n = next;
    }
    subtree(n, out);
  }

  private static void subtree(RuleNode n, Set<RuleNode> out) {
    if (n.kind() != RuleNode.Kind.NONE) {
      out.add(n);
    }
    for (RuleNode c : n.children()) {
      subtree(c, out);
    }
  }
}
