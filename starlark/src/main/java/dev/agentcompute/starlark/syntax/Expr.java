package dev.agentcompute.starlark.syntax;

import java.util.List;

/** Expression nodes. The resolver fills in bindings; the evaluator may cache constants. */
public abstract sealed class Expr implements Node
    permits Ident,
        Expr.Literal,
        Expr.ListExpr,
        Expr.TupleExpr,
        Expr.DictExpr,
        Expr.DictEntry,
        Expr.UnaryExpr,
        Expr.BinaryExpr,
        Expr.CondExpr,
        Expr.IndexExpr,
        Expr.SliceExpr,
        Expr.DotExpr,
        Expr.CallExpr,
        Expr.LambdaExpr,
        Expr.ParenExpr,
        Expr.Comprehension {
  /** Node kind constants, for fast dispatch in the evaluator. */
  public static final int K_IDENT = 0;

  public static final int K_LITERAL = 1;
  public static final int K_LIST_EXPR = 2;
  public static final int K_TUPLE_EXPR = 3;
  public static final int K_DICT_EXPR = 4;
  public static final int K_DICT_ENTRY = 5;
  public static final int K_UNARY_EXPR = 6;
  public static final int K_BINARY_EXPR = 7;
  public static final int K_COND_EXPR = 8;
  public static final int K_INDEX_EXPR = 9;
  public static final int K_SLICE_EXPR = 10;
  public static final int K_DOT_EXPR = 11;
  public static final int K_CALL_EXPR = 12;
  public static final int K_LAMBDA_EXPR = 13;
  public static final int K_PAREN_EXPR = 14;
  public static final int K_COMPREHENSION = 15;

  /** This node's K_* constant. */
  public final int kind;

  Expr(int kind) {
    this.kind = kind;
  }

  /** An int, float, string or bytes literal. value: Long, BigInteger, Double, String or byte[]. */
  public static final class Literal extends Expr {
    public final Token token;
    public final Position pos;
    public final String raw;
    public final Object value;

    /** The evaluator's constant for this literal, created once. */
    public Object cached;

    public Literal(Token token, Position pos, String raw, Object value) {
      super(K_LITERAL);
      this.token = token;
      this.pos = pos;
      this.raw = raw;
      this.value = value;
    }

    @Override
    public Position start() {
      return pos;
    }
  }

  public static final class ListExpr extends Expr {
    public final Position lbrack;
    public final List<Expr> list;

    public ListExpr(Position lbrack, List<Expr> list) {
      super(K_LIST_EXPR);
      this.lbrack = lbrack;
      this.list = list;
    }

    @Override
    public Position start() {
      return lbrack;
    }
  }

  public static final class TupleExpr extends Expr {
    public final Position lparen; // null if unparenthesized
    public final List<Expr> list;

    public TupleExpr(Position lparen, List<Expr> list) {
      super(K_TUPLE_EXPR);
      this.lparen = lparen;
      this.list = list;
    }

    @Override
    public Position start() {
      return lparen != null ? lparen : list.get(0).start();
    }
  }

  public static final class DictExpr extends Expr {
    public final Position lbrace;
    public final List<DictEntry> list;

    public DictExpr(Position lbrace, List<DictEntry> list) {
      super(K_DICT_EXPR);
      this.lbrace = lbrace;
      this.list = list;
    }

    @Override
    public Position start() {
      return lbrace;
    }
  }

  public static final class DictEntry extends Expr {
    public final Expr key;
    public final Position colon;
    public final Expr value;

    public DictEntry(Expr key, Position colon, Expr value) {
      super(K_DICT_ENTRY);
      this.key = key;
      this.colon = colon;
      this.value = value;
    }

    @Override
    public Position start() {
      return key.start();
    }
  }

  public static final class UnaryExpr extends Expr {
    public final Position opPos;
    public final Token op;
    public final Expr x; // null for a bare '*' parameter

    public UnaryExpr(Position opPos, Token op, Expr x) {
      super(K_UNARY_EXPR);
      this.opPos = opPos;
      this.op = op;
      this.x = x;
    }

    @Override
    public Position start() {
      return opPos;
    }
  }

  public static final class BinaryExpr extends Expr {
    public final Expr x;
    public final Position opPos;
    public final Token op;
    public final Expr y;

    public BinaryExpr(Expr x, Position opPos, Token op, Expr y) {
      super(K_BINARY_EXPR);
      this.x = x;
      this.opPos = opPos;
      this.op = op;
      this.y = y;
    }

    @Override
    public Position start() {
      return x.start();
    }
  }

  public static final class CondExpr extends Expr {
    public final Position ifPos;
    public final Expr cond;
    public final Expr trueExpr;
    public final Expr falseExpr;

    public CondExpr(Position ifPos, Expr cond, Expr trueExpr, Expr falseExpr) {
      super(K_COND_EXPR);
      this.ifPos = ifPos;
      this.cond = cond;
      this.trueExpr = trueExpr;
      this.falseExpr = falseExpr;
    }

    @Override
    public Position start() {
      return trueExpr.start();
    }
  }

  public static final class IndexExpr extends Expr {
    public final Expr x;
    public final Position lbrack;
    public final Expr y;

    public IndexExpr(Expr x, Position lbrack, Expr y) {
      super(K_INDEX_EXPR);
      this.x = x;
      this.lbrack = lbrack;
      this.y = y;
    }

    @Override
    public Position start() {
      return x.start();
    }
  }

  public static final class SliceExpr extends Expr {
    public final Expr x;
    public final Position lbrack;
    public final Expr lo;
    public final Expr hi;
    public final Expr step;

    public SliceExpr(Expr x, Position lbrack, Expr lo, Expr hi, Expr step) {
      super(K_SLICE_EXPR);
      this.x = x;
      this.lbrack = lbrack;
      this.lo = lo;
      this.hi = hi;
      this.step = step;
    }

    @Override
    public Position start() {
      return x.start();
    }
  }

  public static final class DotExpr extends Expr {
    public final Expr x;
    public final Position dot;
    public final Ident name;

    public DotExpr(Expr x, Position dot, Ident name) {
      super(K_DOT_EXPR);
      this.x = x;
      this.dot = dot;
      this.name = name;
    }

    @Override
    public Position start() {
      return x.start();
    }
  }

  public static final class CallExpr extends Expr {
    public final Expr fn;
    public final Position lparen;
    public final List<Expr> args;
    public final Position rparen;

    /** Set by the resolver: shape of the argument list, used by the evaluator. */
    public int numPositional;

    public boolean hasStar;
    public boolean hasStarStar;

    public CallExpr(Expr fn, Position lparen, List<Expr> args, Position rparen) {
      super(K_CALL_EXPR);
      this.fn = fn;
      this.lparen = lparen;
      this.args = args;
      this.rparen = rparen;
    }

    @Override
    public Position start() {
      return fn.start();
    }
  }

  public static final class LambdaExpr extends Expr {
    public final Position lambda;
    public final List<Expr> params;
    public final Expr body;
    public Function function;

    public LambdaExpr(Position lambda, List<Expr> params, Expr body) {
      super(K_LAMBDA_EXPR);
      this.lambda = lambda;
      this.params = params;
      this.body = body;
    }

    @Override
    public Position start() {
      return lambda;
    }
  }

  public static final class ParenExpr extends Expr {
    public final Position lparen;
    public final Expr x;

    public ParenExpr(Position lparen, Expr x) {
      super(K_PAREN_EXPR);
      this.lparen = lparen;
      this.x = x;
    }

    @Override
    public Position start() {
      return lparen;
    }
  }

  /** A list comprehension [body for ...] or dict comprehension {k: v for ...}. */
  public static final class Comprehension extends Expr {
    public final boolean curly;
    public final Position lbrack;
    public final Expr body; // DictEntry when curly
    public final List<Clause> clauses;

    public Comprehension(boolean curly, Position lbrack, Expr body, List<Clause> clauses) {
      super(K_COMPREHENSION);
      this.curly = curly;
      this.lbrack = lbrack;
      this.body = body;
      this.clauses = clauses;
    }

    @Override
    public Position start() {
      return lbrack;
    }
  }

  /** A 'for' or 'if' clause of a comprehension. */
  public sealed interface Clause permits ForClause, IfClause {}

  public record ForClause(Position forPos, Expr vars, Position in, Expr x) implements Clause {}

  public record IfClause(Position ifPos, Expr cond) implements Clause {}
}
