package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.resolve.Spell;
import dev.agentcompute.starlark.syntax.Binding;
import dev.agentcompute.starlark.syntax.Expr;
import dev.agentcompute.starlark.syntax.Ident;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.Stmt;
import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tree-walking evaluator over the resolved syntax tree. Every identifier was resolved to a
 * slot, so no name is looked up at run time; statements report control flow with status codes,
 * never exceptions; one step is charged per statement, expression node, loop iteration and call.
 */
final class Eval {
  static final int NORMAL = 0;
  static final int BREAK = 1;
  static final int CONTINUE = 2;
  static final int RETURN = 3;

  /** Maximum Starlark call depth before "Starlark stack overflow". */
  static final int MAX_DEPTH = 100_000;

  static {
    Preload.classes();
  }

  private Eval() {}

  // ---------------------------------------------------------------- errors

  /** Attaches the position and the current call stack to an error, once. */
  static EvalError positioned(EvalFrame fr, Position pos, EvalException ex) {
    if (ex instanceof EvalError ee) {
      return ee;
    }
    fr.pos = pos;
    return new EvalError(ex, snapshot(fr.thread));
  }

  static List<EvalError.StackEntry> snapshot(StarlarkThread thread) {
    List<EvalError.StackEntry> out = new ArrayList<>();
    for (StarlarkThread.Frame f : thread.frames()) {
      if (f instanceof EvalFrame ef) {
        out.add(new EvalError.StackEntry(ef.name, ef.pos));
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- statements

  static int exec(EvalFrame fr, List<Stmt> stmts) throws EvalException {
    for (int i = 0, n = stmts.size(); i < n; i++) {
      int st = exec(fr, stmts.get(i));
      if (st != NORMAL) {
        return st;
      }
    }
    return NORMAL;
  }

  static int exec(EvalFrame fr, Stmt stmt) throws EvalException {
    try {
      fr.thread.step();
      switch (stmt.kind) {
        case Stmt.K_EXPR_STMT -> eval(fr, ((Stmt.ExprStmt) stmt).x);
        case Stmt.K_ASSIGN_STMT -> {
          Stmt.AssignStmt s = (Stmt.AssignStmt) stmt;
          if (s.op == Token.EQ) {
            Value v = eval(fr, s.rhs);
            assign(fr, s.lhs, v, s.opPos);
          } else {
            augmented(fr, s);
          }
        }
        case Stmt.K_BRANCH_STMT -> {
          Stmt.BranchStmt s = (Stmt.BranchStmt) stmt;
          if (s.token == Token.BREAK) {
            return BREAK;
          }
          if (s.token == Token.CONTINUE) {
            return CONTINUE;
          }
        }
        case Stmt.K_IF_STMT -> {
          Stmt.IfStmt s = (Stmt.IfStmt) stmt;
          Stmt.IfStmt cur = s;
          while (true) {
            if (eval(fr, cur.cond).truth()) {
              return exec(fr, cur.trueBody);
            }
            List<Stmt> f = cur.falseBody;
            if (f.size() == 1 && f.get(0) instanceof Stmt.IfStmt elif) {
              fr.thread.step();
              cur = elif;
              continue;
            }
            return exec(fr, f);
          }
        }
        case Stmt.K_FOR_STMT -> {
          Stmt.ForStmt s = (Stmt.ForStmt) stmt;
          return forLoop(fr, s);
        }
        case Stmt.K_WHILE_STMT -> {
          Stmt.WhileStmt s = (Stmt.WhileStmt) stmt;
          while (eval(fr, s.cond).truth()) {
            fr.thread.step();
            int st = exec(fr, s.body);
            if (st == BREAK) {
              break;
            }
            if (st == RETURN) {
              return RETURN;
            }
          }
        }
        case Stmt.K_DEF_STMT -> {
          Stmt.DefStmt s = (Stmt.DefStmt) stmt;
          StarlarkFunction fn = makeFunction(fr, s.function);
          setVar(fr, s.name, fn);
        }
        case Stmt.K_RETURN_STMT -> {
          Stmt.ReturnStmt s = (Stmt.ReturnStmt) stmt;
          fr.result = s.result == null ? NoneValue.NONE : eval(fr, s.result);
          return RETURN;
        }
        case Stmt.K_LOAD_STMT -> load(fr, (Stmt.LoadStmt) stmt);
        default -> throw new IllegalStateException("statement kind " + stmt.kind);
      }
      return NORMAL;
    } catch (EvalException ex) {
      throw positioned(fr, stmt.start(), ex);
    }
  }

  private static int forLoop(EvalFrame fr, Stmt.ForStmt s) throws EvalException {
    Value x = eval(fr, s.x);
    if (x instanceof RangeValue r) {
      return rangeLoop(fr, s, r);
    }
    Iterator it = iterate(fr, x, s.forPos);
    try {
      Value v;
      while ((v = it.next()) != null) {
        fr.thread.step();
        assign(fr, s.vars, v, s.forPos);
        int st = exec(fr, s.body);
        if (st == BREAK) {
          break;
        }
        if (st == RETURN) {
          return RETURN;
        }
      }
    } finally {
      it.close();
    }
    return NORMAL;
  }

  /** {@code for v in range(...)}: a range is immutable, so its elements are computed directly. */
  private static int rangeLoop(EvalFrame fr, Stmt.ForStmt s, RangeValue r) throws EvalException {
    long start = r.start();
    long step = r.step();
    Expr vars = s.vars;
    List<Stmt> body = s.body;
    for (long k = 0, n = r.longLen(); k < n; k++) {
      fr.thread.step();
      assign(fr, vars, StarlarkInt.of(start + k * step), s.forPos);
      int st = exec(fr, body);
      if (st == BREAK) {
        break;
      }
      if (st == RETURN) {
        return RETURN;
      }
    }
    return NORMAL;
  }

  static Iterator iterate(EvalFrame fr, Value x, Position pos) throws EvalException {
    if (x instanceof Iterable it) {
      return it.iterate();
    }
    throw positioned(fr, pos, new EvalException(x.type() + " value is not iterable"));
  }

  private static void load(EvalFrame fr, Stmt.LoadStmt s) throws EvalException {
    String module = s.moduleName();
    Program prog = fr.program();
    Map<String, Value> members;
    if (!prog.dialect().load()) {
      throw positioned(
          fr, s.load, new EvalException("cannot load " + module + ": module loading is disabled"));
    }
    StarlarkThread.LoadHandler h = fr.thread.loadHandler();
    if (h == null) {
      throw positioned(fr, s.load, new EvalException("load not implemented by this application"));
    }
    try {
      members = h.load(fr.thread, module);
    } catch (BudgetException b) {
      throw b;
    } catch (EvalException e) {
      throw positioned(
          fr, s.load, new EvalException("cannot load " + module + ": " + e.getMessage(), e));
    }
    for (int i = 0; i < s.to.size(); i++) {
      String from = s.from.get(i).name;
      Value v = members.get(from);
      if (v == null) {
        String msg = "load: name " + from + " not found in module " + module;
        String near = Spell.nearest(from, new java.util.TreeSet<>(members.keySet()));
        if (near != null) {
          msg += " (did you mean " + near + "?)";
        }
        throw positioned(fr, s.from.get(i).pos, new EvalException(msg));
      }
      setVar(fr, s.to.get(i), v);
    }
  }

  // ---------------------------------------------------------------- assignment

  static void setVar(EvalFrame fr, Ident id, Value v) throws EvalException {
    Binding b = id.binding;
    switch (b.scope) {
      case LOCAL -> fr.locals[b.index] = v;
      case CELL -> ((Cell) fr.locals[b.index]).v = v;
      case GLOBAL -> fr.module.values[b.index] = v;
      case FREE -> fr.freevars[b.index].v = v;
      default ->
          throw new EvalException("internal error: cannot assign to " + b.scope + " " + id.name);
    }
  }

  static void assign(EvalFrame fr, Expr lhs, Value v, Position pos) throws EvalException {
    switch (lhs.kind) {
      case Expr.K_IDENT -> setVar(fr, (Ident) lhs, v);
      case Expr.K_INDEX_EXPR -> {
        Expr.IndexExpr e = (Expr.IndexExpr) lhs;
        Value x = eval(fr, e.x);
        Value i = eval(fr, e.y);
        try {
          Operators.setIndex(x, i, v);
        } catch (EvalException ex) {
          throw positioned(fr, e.lbrack, ex);
        }
      }
      case Expr.K_DOT_EXPR -> {
        Expr.DotExpr e = (Expr.DotExpr) lhs;
        Value x = eval(fr, e.x);
        try {
          Operators.setField(x, e.name.name, v);
        } catch (EvalException ex) {
          throw positioned(fr, e.dot, ex);
        }
      }
      case Expr.K_PAREN_EXPR -> assign(fr, ((Expr.ParenExpr) lhs).x, v, pos);
      case Expr.K_TUPLE_EXPR -> unpack(fr, ((Expr.TupleExpr) lhs).list, v, pos);
      case Expr.K_LIST_EXPR -> unpack(fr, ((Expr.ListExpr) lhs).list, v, pos);
      default -> throw new EvalException("can't assign to " + lhs.getClass().getSimpleName());
    }
  }

  private static void unpack(EvalFrame fr, List<Expr> targets, Value v, Position pos)
      throws EvalException {
    int n = targets.size();
    if (v instanceof Tuple t && t.len() == n) {
      // fast path: no iterator, no copy (a tuple cannot change while we assign)
      for (int k = 0; k < n; k++) {
        assign(fr, targets.get(k), t.get(k), pos);
      }
      return;
    }
    unpackIterable(fr, targets, v, pos);
  }

  private static void unpackIterable(EvalFrame fr, List<Expr> targets, Value v, Position pos)
      throws EvalException {
    if (!(v instanceof Iterable iterable)) {
      throw positioned(fr, pos, new EvalException("got " + v.type() + " in sequence assignment"));
    }
    int n = targets.size();
    Value[] vals = new Value[n];
    int i = 0;
    Iterator it = iterable.iterate();
    try {
      Value x;
      while (i < n && (x = it.next()) != null) {
        vals[i++] = x;
      }
      if (i == n && it.next() != null) {
        int len = v instanceof Sequence s ? s.len() : -1;
        throw positioned(
            fr,
            pos,
            new EvalException("too many values to unpack (got " + len + ", want " + n + ")"));
      }
    } finally {
      it.close();
    }
    if (i < n) {
      throw positioned(
          fr, pos, new EvalException("too few values to unpack (got " + i + ", want " + n + ")"));
    }
    for (int k = 0; k < n; k++) {
      assign(fr, targets.get(k), vals[k], pos);
    }
  }

  private static Token binaryOpOf(Token augmented) {
    return switch (augmented) {
      case PLUS_EQ -> Token.PLUS;
      case MINUS_EQ -> Token.MINUS;
      case STAR_EQ -> Token.STAR;
      case SLASH_EQ -> Token.SLASH;
      case SLASHSLASH_EQ -> Token.SLASHSLASH;
      case PERCENT_EQ -> Token.PERCENT;
      case AMP_EQ -> Token.AMP;
      case PIPE_EQ -> Token.PIPE;
      case CIRCUMFLEX_EQ -> Token.CIRCUMFLEX;
      case LTLT_EQ -> Token.LTLT;
      case GTGT_EQ -> Token.GTGT;
      default -> throw new IllegalArgumentException(augmented.toString());
    };
  }

  private static void augmented(EvalFrame fr, Stmt.AssignStmt s) throws EvalException {
    Token op = binaryOpOf(s.op);
    Expr lhs = s.lhs;
    while (lhs instanceof Expr.ParenExpr p) {
      lhs = p.x;
    }
    switch (lhs.kind) {
      case Expr.K_IDENT -> {
        Ident id = (Ident) lhs;
        Value x = lookup(fr, id);
        Value y = eval(fr, s.rhs);
        setVar(fr, id, inplace(fr, s.opPos, op, x, y));
      }
      case Expr.K_INDEX_EXPR -> {
        Expr.IndexExpr e = (Expr.IndexExpr) lhs;
        Value obj = eval(fr, e.x);
        Value key = eval(fr, e.y);
        Value x;
        try {
          x = Operators.index(obj, key);
        } catch (EvalException ex) {
          throw positioned(fr, e.lbrack, ex);
        }
        Value y = eval(fr, s.rhs);
        Value z = inplace(fr, s.opPos, op, x, y);
        try {
          Operators.setIndex(obj, key, z);
        } catch (EvalException ex) {
          throw positioned(fr, e.lbrack, ex);
        }
      }
      case Expr.K_DOT_EXPR -> {
        Expr.DotExpr e = (Expr.DotExpr) lhs;
        Value obj = eval(fr, e.x);
        Value x;
        try {
          x = Operators.getAttr(obj, e.name.name);
        } catch (EvalException ex) {
          throw positioned(fr, e.dot, ex);
        }
        Value y = eval(fr, s.rhs);
        Value z = inplace(fr, s.opPos, op, x, y);
        try {
          Operators.setField(obj, e.name.name, z);
        } catch (EvalException ex) {
          throw positioned(fr, e.dot, ex);
        }
      }
      default ->
          throw new EvalException(
              "can't use " + lhs.getClass().getSimpleName() + " in augmented assignment");
    }
  }

  /** {@code x op= y}: lists extend and dicts update in place, as in starlark-go. */
  private static Value inplace(EvalFrame fr, Position pos, Token op, Value x, Value y)
      throws EvalException {
    try {
      if (op == Token.PLUS && x instanceof StarlarkList list && y instanceof Iterable it) {
        EvalSupport.listExtendInPlace(list, it);
        return list;
      }
      if (op == Token.PIPE && x instanceof Dict d && y instanceof Dict other) {
        EvalSupport.dictUpdateInPlace(d, other);
        return d;
      }
      return Operators.binary(fr.thread, op, x, y);
    } catch (EvalException ex) {
      throw positioned(fr, pos, ex);
    }
  }

  // ---------------------------------------------------------------- expressions

  static Value lookup(EvalFrame fr, Ident id) throws EvalException {
    Binding b = id.binding;
    Value v;
    switch (b.scope) {
      case LOCAL -> v = fr.locals[b.index];
      case CELL -> v = ((Cell) fr.locals[b.index]).v;
      case FREE -> v = fr.freevars[b.index].v;
      case GLOBAL -> {
        v = fr.module.values[b.index];
        if (v == null) {
          throw positioned(
              fr,
              id.pos,
              new EvalException("global variable " + id.name + " referenced before assignment"));
        }
        return v;
      }
      case PREDECLARED, UNIVERSAL -> {
        v = fr.outside[b.index];
        if (v == null) {
          throw positioned(fr, id.pos, new EvalException("undefined: " + id.name));
        }
        return v;
      }
      default -> throw positioned(fr, id.pos, new EvalException("undefined: " + id.name));
    }
    if (v == null) {
      throw positioned(
          fr,
          id.pos,
          new EvalException("local variable " + id.name + " referenced before assignment"));
    }
    return v;
  }

  static Value literal(Expr.Literal l) {
    Object c = l.cached;
    if (c == null) {
      Object v = l.value;
      if (v instanceof Long n) {
        c = StarlarkInt.of(n);
      } else if (v instanceof BigInteger n) {
        c = StarlarkInt.of(n);
      } else if (v instanceof Double d) {
        c = StarlarkFloat.of(d);
      } else if (v instanceof String str) {
        c = StarlarkString.of(str);
      } else {
        c = StarlarkBytes.of((byte[]) v);
      }
      l.cached = c;
    }
    return (Value) c;
  }

  static Value eval(EvalFrame fr, Expr e) throws EvalException {
    try {
      fr.thread.step();
    } catch (EvalException ex) {
      throw positioned(fr, e.start(), ex);
    }
    return switch (e.kind) {
      case Expr.K_IDENT -> lookup(fr, (Ident) e);
      case Expr.K_LITERAL -> literal((Expr.Literal) e);
      case Expr.K_BINARY_EXPR -> binary(fr, (Expr.BinaryExpr) e);
      case Expr.K_CALL_EXPR -> call(fr, (Expr.CallExpr) e);
      case Expr.K_DOT_EXPR -> dot(fr, (Expr.DotExpr) e);
      case Expr.K_INDEX_EXPR -> index(fr, (Expr.IndexExpr) e);
      case Expr.K_UNARY_EXPR -> unary(fr, (Expr.UnaryExpr) e);
      case Expr.K_PAREN_EXPR -> eval(fr, ((Expr.ParenExpr) e).x);
      case Expr.K_COND_EXPR -> {
        Expr.CondExpr c = (Expr.CondExpr) e;
        yield eval(fr, c.cond).truth() ? eval(fr, c.trueExpr) : eval(fr, c.falseExpr);
      }
      case Expr.K_TUPLE_EXPR -> tuple(fr, (Expr.TupleExpr) e);
      case Expr.K_LIST_EXPR -> list(fr, (Expr.ListExpr) e);
      case Expr.K_DICT_EXPR -> dict(fr, (Expr.DictExpr) e);
      case Expr.K_SLICE_EXPR -> slice(fr, (Expr.SliceExpr) e);
      case Expr.K_COMPREHENSION -> comprehension(fr, (Expr.Comprehension) e);
      case Expr.K_LAMBDA_EXPR -> makeFunction(fr, ((Expr.LambdaExpr) e).function);
      default -> throw new IllegalStateException("dict entry outside dict");
    };
  }

  private static Value dot(EvalFrame fr, Expr.DotExpr d) throws EvalException {
    Value x = eval(fr, d.x);
    try {
      return Operators.getAttr(x, d.name.name);
    } catch (EvalException ex) {
      throw positioned(fr, d.dot, ex);
    }
  }

  private static Value index(EvalFrame fr, Expr.IndexExpr ix) throws EvalException {
    Value x = eval(fr, ix.x);
    Value y = eval(fr, ix.y);
    try {
      return Operators.index(x, y);
    } catch (EvalException ex) {
      throw positioned(fr, ix.lbrack, ex);
    }
  }

  private static Value unary(EvalFrame fr, Expr.UnaryExpr u) throws EvalException {
    Value x = eval(fr, u.x);
    if (u.op == Token.NOT) {
      return Bool.of(!x.truth());
    }
    try {
      return Operators.unary(fr.thread, u.op, x);
    } catch (EvalException ex) {
      throw positioned(fr, u.opPos, ex);
    }
  }

  private static Value tuple(EvalFrame fr, Expr.TupleExpr t) throws EvalException {
    List<Expr> list = t.list;
    int n = list.size();
    if (n == 0) {
      return Tuple.EMPTY;
    }
    Value[] vals = new Value[n];
    for (int i = 0; i < n; i++) {
      vals[i] = eval(fr, list.get(i));
    }
    return Tuple.wrap(vals);
  }

  private static Value list(EvalFrame fr, Expr.ListExpr l) throws EvalException {
    List<Expr> list = l.list;
    ArrayList<Value> vals = new ArrayList<>(list.size());
    for (int i = 0, n = list.size(); i < n; i++) {
      vals.add(eval(fr, list.get(i)));
    }
    return StarlarkList.wrap(vals);
  }

  private static Value dict(EvalFrame fr, Expr.DictExpr d) throws EvalException {
    Dict dict = new Dict();
    for (Expr.DictEntry entry : d.list) {
      Value k = eval(fr, entry.key);
      Value v = eval(fr, entry.value);
      try {
        if (dict.containsKey(k)) {
          throw new EvalException("duplicate key: " + Operators.repr(k));
        }
        dict.put(k, v);
      } catch (EvalException ex) {
        throw positioned(fr, entry.colon, ex);
      }
    }
    return dict;
  }

  private static Value slice(EvalFrame fr, Expr.SliceExpr s) throws EvalException {
    Value x = eval(fr, s.x);
    Value lo = s.lo == null ? NoneValue.NONE : eval(fr, s.lo);
    Value hi = s.hi == null ? NoneValue.NONE : eval(fr, s.hi);
    Value step = s.step == null ? NoneValue.NONE : eval(fr, s.step);
    try {
      return Operators.slice(x, lo, hi, step);
    } catch (EvalException ex) {
      throw positioned(fr, s.lbrack, ex);
    }
  }

  private static Value comprehension(EvalFrame fr, Expr.Comprehension c) throws EvalException {
    if (c.curly) {
      Dict d = new Dict();
      comprehension(fr, c, 0, d, null);
      return d;
    }
    ArrayList<Value> out = new ArrayList<>();
    comprehension(fr, c, 0, null, out);
    return StarlarkList.wrap(out);
  }

  private static Value binary(EvalFrame fr, Expr.BinaryExpr b) throws EvalException {
    Token op = b.op;
    if (op == Token.AND) {
      Value x = eval(fr, b.x);
      return x.truth() ? eval(fr, b.y) : x;
    }
    if (op == Token.OR) {
      Value x = eval(fr, b.x);
      return x.truth() ? x : eval(fr, b.y);
    }
    Value x = eval(fr, b.x);
    Value y = eval(fr, b.y);
    try {
      return EvalSupport.binary(fr.thread, op, x, y);
    } catch (EvalException ex) {
      throw positioned(fr, b.opPos, ex);
    }
  }

  private static void comprehension(
      EvalFrame fr, Expr.Comprehension c, int i, Dict dict, ArrayList<Value> list)
      throws EvalException {
    if (i == c.clauses.size()) {
      if (dict != null) {
        Expr.DictEntry entry = (Expr.DictEntry) c.body;
        Value k = eval(fr, entry.key);
        Value v = eval(fr, entry.value);
        try {
          dict.put(k, v);
        } catch (EvalException ex) {
          throw positioned(fr, entry.colon, ex);
        }
      } else {
        list.add(eval(fr, c.body));
      }
      return;
    }
    Expr.Clause clause = c.clauses.get(i);
    if (clause instanceof Expr.ForClause fc) {
      Value x = eval(fr, fc.x());
      if (x instanceof RangeValue r) {
        long start = r.start();
        long step = r.step();
        Expr vars = fc.vars();
        Position pos = fc.forPos();
        for (long k = 0, n = r.longLen(); k < n; k++) {
          fr.thread.step();
          assign(fr, vars, StarlarkInt.of(start + k * step), pos);
          comprehension(fr, c, i + 1, dict, list);
        }
        return;
      }
      Iterator it = iterate(fr, x, fc.forPos());
      try {
        Value v;
        while ((v = it.next()) != null) {
          fr.thread.step();
          assign(fr, fc.vars(), v, fc.forPos());
          comprehension(fr, c, i + 1, dict, list);
        }
      } finally {
        it.close();
      }
    } else {
      Expr.IfClause ic = (Expr.IfClause) clause;
      if (eval(fr, ic.cond()).truth()) {
        comprehension(fr, c, i + 1, dict, list);
      }
    }
  }

  private static final Value[] NO_ARGS = new Value[0];

  private static Value call(EvalFrame fr, Expr.CallExpr c) throws EvalException {
    Value fn = eval(fr, c.fn);
    List<Expr> args = c.args;
    int np = c.numPositional;
    if (np == args.size()) {
      // only positional arguments: no *args, **kwargs or name=value to sort out
      Value[] positional = NO_ARGS;
      if (np != 0) {
        positional = new Value[np];
        for (int i = 0; i < np; i++) {
          positional[i] = eval(fr, args.get(i));
        }
      }
      return invoke(fr, c, fn, positional, List.of());
    }
    Value[] positional = np == 0 ? NO_ARGS : new Value[np];
    List<Map.Entry<String, Value>> named = null;
    Value star = null;
    Value starstar = null;
    int p = 0;
    for (int i = 0, n = args.size(); i < n; i++) {
      Expr a = args.get(i);
      if (a instanceof Expr.UnaryExpr u && (u.op == Token.STAR || u.op == Token.STARSTAR)) {
        if (u.op == Token.STAR) {
          star = eval(fr, u.x);
        } else {
          starstar = eval(fr, u.x);
        }
      } else if (a instanceof Expr.BinaryExpr b && b.op == Token.EQ) {
        if (named == null) {
          named = new ArrayList<>();
        }
        named.add(Map.entry(((Ident) b.x).name, eval(fr, b.y)));
      } else {
        positional[p++] = eval(fr, a);
      }
    }
    if (star != null) {
      if (!(star instanceof Iterable it)) {
        throw positioned(
            fr,
            c.lparen,
            new EvalException("argument after * must be iterable, not " + star.type()));
      }
      ArrayList<Value> all = new ArrayList<>(List.of(positional));
      Iterator iter = it.iterate();
      try {
        Value v;
        while ((v = iter.next()) != null) {
          all.add(v);
        }
      } finally {
        iter.close();
      }
      positional = all.toArray(NO_ARGS);
    }
    if (starstar != null) {
      if (!(starstar instanceof Dict d)) {
        throw positioned(
            fr,
            c.lparen,
            new EvalException("argument after ** must be a mapping, not " + starstar.type()));
      }
      if (named == null) {
        named = new ArrayList<>();
      }
      for (Map.Entry<Value, Value> en : d.entries()) {
        if (!(en.getKey() instanceof StarlarkString k)) {
          throw positioned(
              fr,
              c.lparen,
              new EvalException("keywords must be strings, not " + en.getKey().type()));
        }
        named.add(Map.entry(k.value(), en.getValue()));
      }
    }
    return invoke(fr, c, fn, positional, named == null ? List.of() : named);
  }

  private static Value invoke(
      EvalFrame fr,
      Expr.CallExpr c,
      Value fn,
      Value[] positional,
      List<Map.Entry<String, Value>> named)
      throws EvalException {
    if (!(fn instanceof Callable callable)) {
      throw positioned(
          fr, c.lparen, new EvalException("invalid call of non-function (" + fn.type() + ")"));
    }
    fr.pos = c.lparen;
    try {
      return call(fr.thread, callable, positional, named);
    } catch (EvalException ex) {
      throw positioned(fr, c.lparen, ex);
    } catch (StackOverflowError so) {
      throw positioned(fr, c.lparen, new EvalException("Starlark stack overflow"));
    }
  }

  // ---------------------------------------------------------------- functions

  static StarlarkFunction makeFunction(EvalFrame fr, dev.agentcompute.starlark.syntax.Function f)
      throws EvalException {
    FunctionCode code = FunctionCode.of(f);
    Value[] defaults = new Value[code.numParams];
    for (int i = 0; i < code.numParams; i++) {
      Expr d = code.defaultExprs[i];
      if (d != null) {
        defaults[i] = eval(fr, d);
      }
    }
    Cell[] free = new Cell[f.freeVars.size()];
    for (int i = 0; i < free.length; i++) {
      Binding b = f.freeVars.get(i);
      free[i] =
          switch (b.scope) {
            case CELL -> (Cell) fr.locals[b.index];
            case FREE -> fr.freevars[b.index];
            default -> throw new IllegalStateException("free variable of scope " + b.scope);
          };
    }
    return new StarlarkFunction(code, fr.program(), fr.module, defaults, free, fr.outside);
  }

  /** Calls any callable from Starlark or from a builtin. */
  static Value call(
      StarlarkThread thread, Callable fn, Value[] args, List<Map.Entry<String, Value>> named)
      throws EvalException {
    if (fn instanceof StarlarkFunction sf) {
      return callFunction(thread, sf, args, named);
    }
    return callBuiltin(thread, fn, args, named);
  }

  /**
   * Calls a function implemented in Java. As in starlark-go, it is a frame of the call stack: an
   * error it raises is reported "in" it, and an error from a Starlark function it calls back lists
   * it between its caller and that function.
   */
  static Value callBuiltin(
      StarlarkThread thread, Callable fn, Value[] args, List<Map.Entry<String, Value>> named)
      throws EvalException {
    try {
      return fn.call(thread, args, named);
    } catch (EvalError e) {
      throw e.throughBuiltin(fn.name(), thread.depth());
    } catch (EvalException e) {
      List<EvalError.StackEntry> stack = snapshot(thread);
      stack.add(new EvalError.StackEntry(fn.name(), EvalError.BUILTIN));
      throw new EvalError(e, stack);
    }
  }

  static Value callFunction(
      StarlarkThread thread,
      StarlarkFunction fn,
      Value[] args,
      List<Map.Entry<String, Value>> named)
      throws EvalException {
    FunctionCode code = fn.code;
    thread.step();
    if (thread.depth() >= MAX_DEPTH) {
      throw new EvalException("Starlark stack overflow");
    }
    Value[] locals = new Value[code.numLocals];
    EvalFrame fr =
        new EvalFrame(
            thread, fn, code.name, fn.module, locals, fn.freevars, fn.outside, code.fn.pos);
    fr.programRef = fn.program;
    int depth = thread.depth();
    thread.pushFrame(fr);
    try {
      // As in starlark-go, the callee's frame is already on the stack: a recursive call or a
      // mismatched argument is reported in the function, at its def.
      try {
        if (!fn.program.dialect().recursion()) {
          checkNotRecursive(thread, code);
        }
        EvalCall.bind(locals, fn, args, named);
      } catch (EvalException ex) {
        throw positioned(fr, fr.pos, ex);
      }
      for (int slot : code.cellSlots) {
        locals[slot] = new Cell(locals[slot]);
      }
      int st = exec(fr, code.fn.body);
      return st == RETURN ? fr.result : NoneValue.NONE;
    } finally {
      thread.popFramesTo(depth);
    }
  }

  /** Fails if a frame below the top one runs {@code code} (the same body, not the same closure). */
  private static void checkNotRecursive(StarlarkThread thread, FunctionCode code)
      throws EvalException {
    List<StarlarkThread.Frame> frames = thread.frames();
    for (int i = 0, n = frames.size() - 1; i < n; i++) {
      if (frames.get(i).callable() instanceof StarlarkFunction other && other.code == code) {
        throw new EvalException("function " + code.name + " called recursively");
      }
    }
  }
}
