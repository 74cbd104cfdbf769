package dev.agentcompute.starlark.syntax;

import java.util.List;

/** Statement nodes. */
public abstract sealed class Stmt implements Node
    permits Stmt.ExprStmt,
        Stmt.AssignStmt,
        Stmt.BranchStmt,
        Stmt.IfStmt,
        Stmt.ForStmt,
        Stmt.WhileStmt,
        Stmt.DefStmt,
        Stmt.ReturnStmt,
        Stmt.LoadStmt {
  /** Node kind constants, for fast dispatch in the evaluator. */
  public static final int K_EXPR_STMT = 0;

  public static final int K_ASSIGN_STMT = 1;
  public static final int K_BRANCH_STMT = 2;
  public static final int K_IF_STMT = 3;
  public static final int K_FOR_STMT = 4;
  public static final int K_WHILE_STMT = 5;
  public static final int K_DEF_STMT = 6;
  public static final int K_RETURN_STMT = 7;
  public static final int K_LOAD_STMT = 8;

  /** This node's K_* constant. */
  public final int kind;

  Stmt(int kind) {
    this.kind = kind;
  }

  public static final class ExprStmt extends Stmt {
    public final Expr x;

    public ExprStmt(Expr x) {
      super(K_EXPR_STMT);
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
      super(K_ASSIGN_STMT);
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
      super(K_BRANCH_STMT);
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
      super(K_IF_STMT);
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
      super(K_FOR_STMT);
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
      super(K_WHILE_STMT);
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
      super(K_DEF_STMT);
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
      super(K_RETURN_STMT);
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
      super(K_LOAD_STMT);
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
