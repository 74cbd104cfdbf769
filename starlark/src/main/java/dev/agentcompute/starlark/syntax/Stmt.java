package dev.agentcompute.starlark.syntax;

import java.util.List;

/** Statement nodes. */
public abstract sealed class Stmt implements Node
    permits Stmt.ExprStmt, Stmt.AssignStmt, Stmt.BranchStmt, Stmt.IfStmt, Stmt.ForStmt,
        Stmt.WhileStmt, Stmt.DefStmt, Stmt.ReturnStmt, Stmt.LoadStmt {

  public static final class ExprStmt extends Stmt {
    public final Expr x;

    public ExprStmt(Expr x) {
      this.x = x;
    }

    @Override
    public Position start() {
      return x.start();
    }
  }

  /** {@code lhs = rhs} or an augmented assignment {@code lhs op= rhs}. */
  public static final class AssignStmt extends Stmt {
    public final Position opPos;
    public final Token op;
    public final Expr lhs;
    public final Expr rhs;

    public AssignStmt(Position opPos, Token op, Expr lhs, Expr rhs) {
      this.opPos = opPos;
      this.op = op;
      this.lhs = lhs;
      this.rhs = rhs;
    }

    @Override
    public Position start() {
      return lhs.start();
    }
  }

  /** break, continue or pass. */
  public static final class BranchStmt extends Stmt {
    public final Token token;
    public final Position pos;

    public BranchStmt(Token token, Position pos) {
      this.token = token;
      this.pos = pos;
    }

    @Override
    public Position start() {
      return pos;
    }
  }

  public static final class IfStmt extends Stmt {
    public final Position ifPos;
    public final Expr cond;
    public final List<Stmt> trueBody;
    public List<Stmt> falseBody;

    public IfStmt(Position ifPos, Expr cond, List<Stmt> trueBody, List<Stmt> falseBody) {
      this.ifPos = ifPos;
      this.cond = cond;
      this.trueBody = trueBody;
      this.falseBody = falseBody;
    }

    @Override
    public Position start() {
      return ifPos;
    }
  }

  public static final class ForStmt extends Stmt {
    public final Position forPos;
    public final Expr vars;
    public final Expr x;
    public final List<Stmt> body;

    public ForStmt(Position forPos, Expr vars, Expr x, List<Stmt> body) {
      this.forPos = forPos;
      this.vars = vars;
      this.x = x;
      this.body = body;
    }

    @Override
    public Position start() {
      return forPos;
    }
  }

  public static final class WhileStmt extends Stmt {
    public final Position whilePos;
    public final Expr cond;
    public final List<Stmt> body;

    public WhileStmt(Position whilePos, Expr cond, List<Stmt> body) {
      this.whilePos = whilePos;
      this.cond = cond;
      this.body = body;
    }

    @Override
    public Position start() {
      return whilePos;
    }
  }

  public static final class DefStmt extends Stmt {
    public final Position def;
    public final Ident name;
    public final List<Expr> params;
    public final List<Stmt> body;
    public Function function;

    public DefStmt(Position def, Ident name, List<Expr> params, List<Stmt> body) {
      this.def = def;
      this.name = name;
      this.params = params;
      this.body = body;
    }

    @Override
    public Position start() {
      return def;
    }
  }

  public static final class ReturnStmt extends Stmt {
    public final Position returnPos; // null for the synthetic return of a lambda
    public final Expr result; // may be null

    public ReturnStmt(Position returnPos, Expr result) {
      this.returnPos = returnPos;
      this.result = result;
    }

    @Override
    public Position start() {
      return returnPos != null ? returnPos : result.start();
    }
  }

  /** {@code load("module", "x", y="z")}: to[i] is bound to the module's member from[i]. */
  public static final class LoadStmt extends Stmt {
    public final Position load;
    public final Expr.Literal module;
    public final List<Ident> to;
    public final List<Ident> from;

    public LoadStmt(Position load, Expr.Literal module, List<Ident> to, List<Ident> from) {
      this.load = load;
      this.module = module;
      this.to = to;
      this.from = from;
    }

    @Override
    public Position start() {
      return load;
    }

    public String moduleName() {
      return (String) module.value;
    }
  }
}
