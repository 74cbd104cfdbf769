package dev.agentcompute.starlark.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * A function body (def or lambda) as resolved: its locals and free variables, filled in by the
 * resolver. Parameters occupy local slots 0..numParams-1 in declaration order, then *args and
 * **kwargs.
 */
public final class Function {
  public final String name;
  public final Position pos;
  public final List<Expr> params;
  public final List<Stmt> body;
  public final List<Binding> locals = new ArrayList<>();

  /** For each free variable, the binding in the enclosing function (LOCAL/CELL/FREE there). */
  public final List<Binding> freeVars = new ArrayList<>();

  public boolean hasVarargs;
  public boolean hasKwargs;
  public int numKwonlyParams;

  /** The evaluator's prepared form of this function, created once on first use. */
  public Object code;

  public Function(String name, Position pos, List<Expr> params, List<Stmt> body) {
    this.name = name;
    this.pos = pos;
    this.params = params;
    this.body = body;
  }

  /** Number of named parameters (positional and keyword-only), excluding *args and **kwargs. */
  public int numParams() {
    int n = 0;
    for (Expr p : params) {
      if (!(p instanceof Expr.UnaryExpr)) {
        n++;
      }
    }
    return n;
  }

  public String paramName(int i) {
    Expr p = params.get(i);
    if (p instanceof Ident id) {
      return id.name;
    }
    if (p instanceof Expr.BinaryExpr b) {
      return ((Ident) b.x).name;
    }
    return null;
  }
}
