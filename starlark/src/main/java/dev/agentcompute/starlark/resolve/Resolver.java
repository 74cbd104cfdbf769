package dev.agentcompute.starlark.resolve;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.syntax.Binding;
import dev.agentcompute.starlark.syntax.Expr;
import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.Function;
import dev.agentcompute.starlark.syntax.Ident;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.Scope;
import dev.agentcompute.starlark.syntax.Stmt;
import dev.agentcompute.starlark.syntax.SyntaxError;
import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Static name resolution (starlark-go's resolve.go): binds every identifier to a slot, computes
 * closures (cells and free variables), and reports every static error of the dialect.
 */
public final class Resolver {
  private static final String DOESNT = "this Starlark dialect does not support ";

  /** A lexical block: the file, a function body or a comprehension. */
  private static final class Block {
    final Block parent;
    final Function function; // function blocks only
    final Map<String, Binding> bindings = new HashMap<>();
    final List<Block> children = new ArrayList<>();
    List<Use> uses = new ArrayList<>();

    Block(Block parent, Function function) {
      this.parent = parent;
      this.function = function;
    }
  }

  private record Use(Ident id, Block env) {}

  private final Dialect dialect;
  private final Predicate<String> isPredeclared;
  private final Predicate<String> isUniversal;
  private final FileNode fileNode;
  private final Block file;
  private Block env;
  private final Map<String, Binding> globals = new HashMap<>();
  private final Map<String, Binding> predeclared = new HashMap<>();
  private int loops;
  private final List<SyntaxError.Item> errors = new ArrayList<>();

  private Resolver(
      FileNode fileNode,
      Dialect dialect,
      Predicate<String> isPredeclared,
      Predicate<String> isUniversal) {
    this.fileNode = fileNode;
    this.dialect = dialect;
    this.isPredeclared = isPredeclared;
    this.isUniversal = isUniversal;
    this.file = new Block(null, null);
    this.env = file;
  }

  /**
   * Resolves a parsed file in place.
   *
   * @param isPredeclared names the embedder provides
   * @param isUniversal names of the Universe (builtins)
   * @throws SyntaxError listing every resolve error
   */
  public static void resolve(
      FileNode fileNode,
      Dialect dialect,
      Predicate<String> isPredeclared,
      Predicate<String> isUniversal)
      throws SyntaxError {
    Resolver r = new Resolver(fileNode, dialect, isPredeclared, isUniversal);
    r.stmts(fileNode.stmts);
    r.resolveLocalUses(r.file);
    r.resolveNonLocalUses(r.file);
    if (!r.errors.isEmpty()) {
      // In discovery order, as starlark-go reports them (the first is what embedders show).
      throw new SyntaxError(r.errors);
    }
  }

  private void errorf(Position pos, String msg) {
    errors.add(new SyntaxError.Item(pos, msg));
  }

  private Block container() {
    for (Block b = env; ; b = b.parent) {
      if (b.function != null || b == file) {
        return b;
      }
    }
  }

  private void push(Block b) {
    env.children.add(b);
    env = b;
  }

  private void pop() {
    env = env.parent;
  }

  /** Binds id at top level (global) or locally; returns whether a binding already existed. */
  private boolean bind(Ident id) {
    if (env == file) {
      Binding b = file.bindings.get(id.name);
      boolean ok = b != null;
      if (!ok) {
        b = globals.get(id.name);
        ok = b != null;
        if (!ok) {
          b = new Binding(Scope.GLOBAL, fileNode.globals.size(), id);
          globals.put(id.name, b);
          fileNode.globals.add(b);
        }
      }
      if (ok && !dialect.globalReassign()) {
        errorf(
            id.pos, "cannot reassign " + b.scope + " " + id.name + " declared at " + b.first.pos);
      }
      id.binding = b;
      return ok;
    }
    return bindLocal(id);
  }

  private boolean bindLocal(Ident id) {
    boolean ok = env.bindings.containsKey(id.name);
    if (!ok) {
      Function fn = container().function;
      List<Binding> locals = fn != null ? fn.locals : fileNode.moduleLocals;
      Binding b = new Binding(Scope.LOCAL, locals.size(), id);
      env.bindings.put(id.name, b);
      locals.add(b);
    }
    use(id);
    return ok;
  }

  private void use(Ident id) {
    Use u = new Use(id, env);
    if (dialect.globalReassign() && env == file) {
      useToplevel(u);
      return;
    }
    container().uses.add(u);
  }

  private Binding useToplevel(Use u) {
    Ident id = u.id();
    Binding b;
    if ((b = file.bindings.get(id.name)) != null) {
      // load-bound name
    } else if ((b = globals.get(id.name)) != null) {
      // global
    } else if ((b = predeclared.get(id.name)) != null) {
      // repeated use of a predeclared or universal name
    } else if (isPredeclared.test(id.name)) {
      b = new Binding(Scope.PREDECLARED, fileNode.outsideNames.size(), null);
      fileNode.outsideNames.add(id.name);
      predeclared.put(id.name, b);
    } else if (isUniversal.test(id.name)) {
      if (!dialect.set() && id.name.equals("set")) {
        errorf(id.pos, DOESNT + "sets");
      }
      b = new Binding(Scope.UNIVERSAL, fileNode.outsideNames.size(), null);
      fileNode.outsideNames.add(id.name);
      predeclared.put(id.name, b);
    } else {
      b = new Binding(Scope.UNDEFINED, 0, null);
      String hint = spellcheck(u);
      errorf(
          id.pos, "undefined: " + id.name + (hint != null ? " (did you mean " + hint + "?)" : ""));
    }
    id.binding = b;
    return b;
  }

  private String spellcheck(Use u) {
    Set<String> names = new HashSet<>();
    for (Block b = u.env(); b != null; b = b.parent) {
      names.addAll(b.bindings.keySet());
    }
    for (Binding g : fileNode.globals) {
      names.add(g.first.name);
    }
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(null);
    return Spell.nearest(u.id().name, sorted);
  }

  private void resolveLocalUses(Block b) {
    List<Use> unresolved = new ArrayList<>();
    for (Use u : b.uses) {
      Binding bind = lookupLocal(u);
      if (bind != null && (bind.scope == Scope.LOCAL || bind.scope == Scope.CELL)) {
        u.id().binding = bind;
      } else {
        unresolved.add(u);
      }
    }
    b.uses = unresolved;
  }

  private static Binding lookupLocal(Use u) {
    for (Block e = u.env(); e != null; e = e.parent) {
      Binding b = e.bindings.get(u.id().name);
      if (b != null) {
        return b;
      }
      if (e.function != null) {
        break;
      }
    }
    return null;
  }

  private void resolveNonLocalUses(Block b) {
    for (Block child : b.children) {
      resolveNonLocalUses(child);
    }
    for (Use u : b.uses) {
      u.id().binding = lookupLexical(u, u.env());
    }
  }

  private Binding lookupLexical(Use u, Block e) {
    if (e == file) {
      return useToplevel(u);
    }
    Binding bind = e.bindings.get(u.id().name);
    if (bind == null) {
      bind = lookupLexical(u, e.parent);
      if (e.function != null
          && (bind.scope == Scope.LOCAL || bind.scope == Scope.FREE || bind.scope == Scope.CELL)) {
        if (bind.scope == Scope.LOCAL) {
          bind.scope = Scope.CELL;
        }
        int index = e.function.freeVars.size();
        e.function.freeVars.add(bind);
        bind = new Binding(Scope.FREE, index, bind.first);
      }
      e.bindings.put(u.id().name, bind);
    }
    return bind;
  }

  private void stmts(List<Stmt> list) {
    for (Stmt s : list) {
      stmt(s);
    }
  }

  private void stmt(Stmt stmt) {
    switch (stmt.kind) {
      case Stmt.K_EXPR_STMT -> expr(((Stmt.ExprStmt) stmt).x);
      case Stmt.K_BRANCH_STMT -> {
        Stmt.BranchStmt s = (Stmt.BranchStmt) stmt;
        if (loops == 0 && (s.token == Token.BREAK || s.token == Token.CONTINUE)) {
          errorf(s.pos, s.token + " not in a loop");
        }
      }
      case Stmt.K_IF_STMT -> {
        Stmt.IfStmt s = (Stmt.IfStmt) stmt;
        if (!dialect.topLevelControl() && container().function == null) {
          errorf(s.ifPos, "if statement not within a function");
        }
        expr(s.cond);
        inConditional++;
        stmts(s.trueBody);
        stmts(s.falseBody);
        inConditional--;
      }
      case Stmt.K_ASSIGN_STMT -> {
        Stmt.AssignStmt s = (Stmt.AssignStmt) stmt;
        expr(s.rhs);
        assign(s.lhs, s.op != Token.EQ);
      }
      case Stmt.K_DEF_STMT -> {
        Stmt.DefStmt s = (Stmt.DefStmt) stmt;
        bind(s.name);
        Function fn = new Function(s.name.name, s.def, s.params, s.body);
        s.function = fn;
        function(fn);
      }
      case Stmt.K_FOR_STMT -> {
        Stmt.ForStmt s = (Stmt.ForStmt) stmt;
        if (!dialect.topLevelControl() && container().function == null) {
          errorf(s.forPos, "for loop not within a function");
        }
        expr(s.x);
        assign(s.vars, false);
        loops++;
        stmts(s.body);
        loops--;
      }
      case Stmt.K_WHILE_STMT -> {
        Stmt.WhileStmt s = (Stmt.WhileStmt) stmt;
        if (!dialect.whileLoops()) {
          errorf(s.whilePos, DOESNT + "while loops");
        }
        if (!dialect.topLevelControl() && container().function == null) {
          errorf(s.whilePos, "while loop not within a function");
        }
        expr(s.cond);
        loops++;
        stmts(s.body);
        loops--;
      }
      case Stmt.K_RETURN_STMT -> {
        Stmt.ReturnStmt s = (Stmt.ReturnStmt) stmt;
        if (container().function == null) {
          errorf(s.returnPos, "return statement not within a function");
        }
        if (s.result != null) {
          expr(s.result);
        }
      }
      case Stmt.K_LOAD_STMT -> {
        Stmt.LoadStmt s = (Stmt.LoadStmt) stmt;
        if (container().function != null) {
          errorf(s.load, "load statement within a function");
        } else if (loops > 0) {
          errorf(s.load, "load statement within a loop");
        } else if (inConditional > 0) {
          errorf(s.load, "load statement within a conditional");
        }
        for (int i = 0; i < s.from.size(); i++) {
          Ident from = s.from.get(i);
          if (from.name.isEmpty()) {
            errorf(from.pos, "load: empty identifier");
            continue;
          }
          if (from.name.charAt(0) == '_') {
            errorf(from.pos, "load: names with leading underscores are not exported: " + from.name);
          }
          Ident id = s.to.get(i);
          if (dialect.loadBindsGlobally()) {
            bind(id);
          } else if (bindLocal(id) && !dialect.globalReassign()) {
            errorf(id.pos, "cannot reassign top-level " + id.name);
          }
        }
      }
      default -> throw new IllegalStateException("statement kind " + stmt.kind);
    }
  }

  private int inConditional;

  private void assign(Expr lhs, boolean isAugmented) {
    switch (lhs.kind) {
      case Expr.K_IDENT -> bind((Ident) lhs);
      case Expr.K_INDEX_EXPR -> {
        Expr.IndexExpr e = (Expr.IndexExpr) lhs;
        expr(e.x);
        expr(e.y);
      }
      case Expr.K_DOT_EXPR -> expr(((Expr.DotExpr) lhs).x);
      case Expr.K_TUPLE_EXPR -> {
        Expr.TupleExpr e = (Expr.TupleExpr) lhs;
        if (isAugmented) {
          errorf(e.start(), "can't use tuple expression in augmented assignment");
        }
        for (Expr x : e.list) {
          assign(x, isAugmented);
        }
      }
      case Expr.K_LIST_EXPR -> {
        Expr.ListExpr e = (Expr.ListExpr) lhs;
        if (isAugmented) {
          errorf(e.start(), "can't use list expression in augmented assignment");
        }
        for (Expr x : e.list) {
          assign(x, isAugmented);
        }
      }
      case Expr.K_PAREN_EXPR -> assign(((Expr.ParenExpr) lhs).x, isAugmented);
      default ->
          errorf(lhs.start(), "can't assign to " + lhs.getClass().getSimpleName().toLowerCase());
    }
  }

  private void expr(Expr e) {
    switch (e.kind) {
      case Expr.K_IDENT -> use((Ident) e);
      case Expr.K_LITERAL -> {}
      case Expr.K_LIST_EXPR -> {
        Expr.ListExpr l = (Expr.ListExpr) e;
        for (Expr x : l.list) {
          expr(x);
        }
      }
      case Expr.K_COND_EXPR -> {
        Expr.CondExpr c = (Expr.CondExpr) e;
        expr(c.cond);
        expr(c.trueExpr);
        expr(c.falseExpr);
      }
      case Expr.K_INDEX_EXPR -> {
        Expr.IndexExpr i = (Expr.IndexExpr) e;
        expr(i.x);
        expr(i.y);
      }
      case Expr.K_DICT_ENTRY -> {
        Expr.DictEntry d = (Expr.DictEntry) e;
        expr(d.key);
        expr(d.value);
      }
      case Expr.K_SLICE_EXPR -> {
        Expr.SliceExpr s = (Expr.SliceExpr) e;
        expr(s.x);
        if (s.lo != null) {
          expr(s.lo);
        }
        if (s.hi != null) {
          expr(s.hi);
        }
        if (s.step != null) {
          expr(s.step);
        }
      }
      case Expr.K_COMPREHENSION -> {
        Expr.Comprehension c = (Expr.Comprehension) e;
        Expr.ForClause first = (Expr.ForClause) c.clauses.get(0);
        expr(first.x());
        push(new Block(env, null));
        assign(first.vars(), false);
        for (int i = 1; i < c.clauses.size(); i++) {
          if (c.clauses.get(i) instanceof Expr.IfClause ic) {
            expr(ic.cond());
          } else {
            Expr.ForClause fc = (Expr.ForClause) c.clauses.get(i);
            assign(fc.vars(), false);
            expr(fc.x());
          }
        }
        expr(c.body);
        pop();
      }
      case Expr.K_TUPLE_EXPR -> {
        Expr.TupleExpr t = (Expr.TupleExpr) e;
        for (Expr x : t.list) {
          expr(x);
        }
      }
      case Expr.K_DICT_EXPR -> {
        Expr.DictExpr d = (Expr.DictExpr) e;
        for (Expr.DictEntry entry : d.list) {
          expr(entry.key);
          expr(entry.value);
        }
      }
      case Expr.K_UNARY_EXPR -> expr(((Expr.UnaryExpr) e).x);
      case Expr.K_BINARY_EXPR -> {
        Expr.BinaryExpr b = (Expr.BinaryExpr) e;
        expr(b.x);
        expr(b.y);
      }
      case Expr.K_DOT_EXPR -> expr(((Expr.DotExpr) e).x);
      case Expr.K_CALL_EXPR -> callExpr((Expr.CallExpr) e);
      case Expr.K_LAMBDA_EXPR -> {
        Expr.LambdaExpr l = (Expr.LambdaExpr) e;
        Function fn =
            new Function("lambda", l.lambda, l.params, List.of(new Stmt.ReturnStmt(null, l.body)));
        l.function = fn;
        function(fn);
      }
      case Expr.K_PAREN_EXPR -> expr(((Expr.ParenExpr) e).x);
      default -> throw new IllegalStateException("expression kind " + e.kind);
    }
  }

  private void callExpr(Expr.CallExpr call) {
    expr(call.fn);
    boolean seenVarargs = false;
    boolean seenKwargs = false;
    Set<String> seenName = new HashSet<>();
    int n = 0;
    int p = 0;
    for (Expr arg : call.args) {
      Position pos = arg.start();
      if (arg instanceof Expr.UnaryExpr u && u.op == Token.STARSTAR) {
        if (seenKwargs) {
          errorf(pos, "multiple **kwargs not allowed");
        }
        seenKwargs = true;
        expr(arg);
      } else if (arg instanceof Expr.UnaryExpr u && u.op == Token.STAR) {
        if (seenKwargs) {
          errorf(pos, "*args may not follow **kwargs");
        } else if (seenVarargs) {
          errorf(pos, "multiple *args not allowed");
        }
        seenVarargs = true;
        expr(arg);
      } else if (arg instanceof Expr.BinaryExpr b && b.op == Token.EQ) {
        n++;
        if (seenKwargs) {
          errorf(pos, "argument may not follow **kwargs");
        } else if (seenVarargs) {
          errorf(pos, "keyword argument may not follow *args");
        }
        Ident x = (Ident) b.x;
        if (!seenName.add(x.name)) {
          errorf(
              x.pos,
              dialect.codeModeTexts()
                  ? "keyword argument " + x.name + " repeated"
                  : "keyword argument \"" + x.name + "\" is repeated");
        }
        expr(b.y);
      } else {
        p++;
        if (seenVarargs) {
          errorf(pos, "positional argument may not follow *args");
        } else if (seenKwargs) {
          errorf(pos, "argument may not follow **kwargs");
        } else if (!seenName.isEmpty()) {
          errorf(pos, "positional argument may not follow named");
        }
        expr(arg);
      }
    }
    call.numPositional = p;
    call.hasStar = seenVarargs;
    call.hasStarStar = seenKwargs;
    if (p >= 256) {
      errorf(call.start(), p + " positional arguments in call, limit is 255");
    }
    if (n >= 256) {
      errorf(call.start(), n + " keyword arguments in call, limit is 255");
    }
  }

  private void function(Function function) {
    for (Expr param : function.params) {
      if (param instanceof Expr.BinaryExpr b) {
        expr(b.y);
      }
    }
    Block b = new Block(env, function);
    push(b);
    int savedLoops = loops;
    loops = 0;
    boolean seenOptional = false;
    Expr.UnaryExpr star = null;
    Ident starStar = null;
    int numKwonly = 0;
    for (Expr param : function.params) {
      switch (param.kind) {
        case Expr.K_IDENT -> {
          Ident id = (Ident) param;
          if (starStar != null) {
            errorf(id.pos, "required parameter may not follow **" + starStar.name);
          } else if (star != null) {
            numKwonly++;
          } else if (seenOptional) {
            errorf(id.pos, "required parameter may not follow optional");
          }
          if (bind(id)) {
            errorf(id.pos, "duplicate parameter: " + id.name);
          }
        }
        case Expr.K_BINARY_EXPR -> {
          Expr.BinaryExpr bin = (Expr.BinaryExpr) param;
          if (starStar != null) {
            errorf(bin.opPos, "optional parameter may not follow **" + starStar.name);
          } else if (star != null) {
            numKwonly++;
          }
          Ident id = (Ident) bin.x;
          if (bind(id)) {
            errorf(bin.opPos, "duplicate parameter: " + id.name);
          }
          seenOptional = true;
        }
        case Expr.K_UNARY_EXPR -> {
          Expr.UnaryExpr u = (Expr.UnaryExpr) param;
          if (u.op == Token.STAR) {
            if (starStar != null) {
              errorf(u.opPos, "* parameter may not follow **" + starStar.name);
            } else if (star != null) {
              errorf(u.opPos, "multiple * parameters not allowed");
            } else {
              star = u;
            }
          } else {
            if (starStar != null) {
              errorf(u.opPos, "multiple ** parameters not allowed");
            }
            starStar = (Ident) u.x;
          }
        }
        default -> throw new IllegalStateException("unexpected parameter");
      }
    }
    if (star != null) {
      if (star.x instanceof Ident id) {
        if (bind(id)) {
          errorf(id.pos, "duplicate parameter: " + id.name);
        }
        function.hasVarargs = true;
      } else if (numKwonly == 0) {
        errorf(star.opPos, "bare * must be followed by keyword-only parameters");
      }
    }
    if (starStar != null) {
      if (bind(starStar)) {
        errorf(starStar.pos, "duplicate parameter: " + starStar.name);
      }
      function.hasKwargs = true;
    }
    function.numKwonlyParams = numKwonly;
    stmts(function.body);
    resolveLocalUses(b);
    pop();
    loops = savedLoops;
  }
}
