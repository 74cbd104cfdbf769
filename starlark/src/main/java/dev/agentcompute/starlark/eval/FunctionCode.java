package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Binding;
import dev.agentcompute.starlark.syntax.Expr;
import dev.agentcompute.starlark.syntax.Function;
import dev.agentcompute.starlark.syntax.Scope;
import java.util.ArrayList;
import java.util.List;

/** The evaluator's per-function facts, computed once from the resolved syntax. */
final class FunctionCode {
  final Function fn;
  final String name;
  final int numParams; // named parameters (positional and keyword-only)
  final int nonKwonly;
  final String[] paramNames;
  final int[] cellSlots;
  final int numLocals;
  final boolean hasVarargs;
  final boolean hasKwargs;

  /** Whether some non-keyword-only parameter has a default ("accepts at most N"). */
  final boolean optionalPositional;

  /** Indices into the parameter list of parameters with defaults. */
  final Expr[] defaultExprs;

  private FunctionCode(Function fn) {
    this.fn = fn;
    this.name = fn.name;
    this.numParams = fn.numParams();
    this.nonKwonly = numParams - fn.numKwonlyParams;
    this.paramNames = new String[numParams];
    this.defaultExprs = new Expr[numParams];
    int k = 0;
    boolean opt = false;
    for (Expr p : fn.params) {
      if (p instanceof Expr.UnaryExpr) {
        continue;
      }
      paramNames[k] = fn.paramName(fn.params.indexOf(p));
      if (p instanceof Expr.BinaryExpr b) {
        defaultExprs[k] = b.y;
        if (k < nonKwonly) {
          opt = true;
        }
      }
      k++;
    }
    this.optionalPositional = opt;
    List<Integer> cells = new ArrayList<>();
    for (Binding b : fn.locals) {
      if (b.scope == Scope.CELL) {
        cells.add(b.index);
      }
    }
    this.cellSlots = cells.stream().mapToInt(Integer::intValue).toArray();
    this.numLocals = fn.locals.size();
    this.hasVarargs = fn.hasVarargs;
    this.hasKwargs = fn.hasKwargs;
  }

  static FunctionCode of(Function fn) {
    Object c = fn.code;
    if (c == null) {
      c = new FunctionCode(fn);
      fn.code = c;
    }
    return (FunctionCode) c;
  }
}
