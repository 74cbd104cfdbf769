package dev.agentcompute.starlark.syntax;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Recursive-descent parser for Starlark, following starlark-go's parse.go (LL(1), precedence
 * climbing for binary operators). Nesting is bounded so hostile input ends in a syntax error, not a
 * StackOverflowError.
 */
public final class Parser {
  /** Maximum nesting of expressions and blocks. */
  static final int MAX_DEPTH = 200;

  private static final Map<Token, Integer> PRECEDENCE = new EnumMap<>(Token.class);
  private static final int NLEVELS = 10;
  private static final int PREC_NOT = 2;
  private static final int PREC_CMP = 3;

  static {
    Token[][] levels = {
      {Token.OR},
      {Token.AND},
      {Token.NOT},
      {Token.EQL, Token.NEQ, Token.LT, Token.GT, Token.LE, Token.GE, Token.IN, Token.NOT_IN},
      {Token.PIPE},
      {Token.CIRCUMFLEX},
      {Token.AMP},
      {Token.LTLT, Token.GTGT},
      {Token.MINUS, Token.PLUS},
      {Token.STAR, Token.PERCENT, Token.SLASH, Token.SLASHSLASH},
    };
    for (int i = 0; i < levels.length; i++) {
      for (Token t : levels[i]) {
        PRECEDENCE.put(t, i);
      }
    }
  }

  private final Scanner in;
  private int depth;

  private Parser(Scanner in) {
    this.in = in;
  }

  /** Parses a whole file. */
  /** Drops an ArrayList's spare capacity: the tree lives as long as its program. */
  private static <T> List<T> exact(List<T> list) {
    if (list instanceof ArrayList<T> a) {
      a.trimToSize();
    }
    return list;
  }

  public static FileNode parseFile(String filename, String src) throws SyntaxError {
    Parser p = new Parser(new Scanner(filename, src));
    try {
      p.in.next();
      List<Stmt> stmts = new ArrayList<>();
      while (p.in.tok != Token.EOF) {
        if (p.in.tok == Token.NEWLINE) {
          p.in.next();
          continue;
        }
        p.parseStmt(stmts);
      }
      return new FileNode(filename, exact(stmts));
    } catch (ParseFailure f) {
      throw new SyntaxError(f.pos, f.getMessage());
    }
  }

  private Token tok() {
    return in.tok;
  }

  /** Advances and returns the position of the token just consumed. */
  private Position next() {
    Position p = in.pos;
    in.next();
    return p;
  }

  private ParseFailure error(Position pos, String msg) {
    return new ParseFailure(pos, msg);
  }

  private ParseFailure errorHere(String msg) {
    return new ParseFailure(in.pos, msg);
  }

  static String goString(Token t) {
    if (t.ordinal() >= Token.PLUS.ordinal() && t.ordinal() <= Token.STARSTAR.ordinal()) {
      return "'" + t + "'";
    }
    return t.toString();
  }

  private Position consume(Token t) {
    if (tok() != t) {
      throw errorHere("got " + goString(tok()) + ", want " + goString(t));
    }
    return next();
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw errorHere("nesting too deep (limit " + MAX_DEPTH + ")");
    }
  }

  private void parseStmt(List<Stmt> stmts) {
    enter();
    try {
      switch (tok()) {
        case DEF -> stmts.add(parseDefStmt());
        case IF -> stmts.add(parseIfStmt());
        case FOR -> stmts.add(parseForStmt());
        case WHILE -> stmts.add(parseWhileStmt());
        default -> parseSimpleStmt(stmts);
      }
    } finally {
      depth--;
    }
  }

  private Stmt parseDefStmt() {
    Position defpos = next();
    Ident id = parseIdent();
    consume(Token.LPAREN);
    List<Expr> params = parseParams();
    consume(Token.RPAREN);
    consume(Token.COLON);
    List<Stmt> body = parseSuite();
    return new Stmt.DefStmt(defpos, id, params, body);
  }

  private Stmt parseIfStmt() {
    Position ifpos = next();
    Expr cond = parseTest();
    consume(Token.COLON);
    List<Stmt> body = parseSuite();
    Stmt.IfStmt ifStmt = new Stmt.IfStmt(ifpos, cond, body, List.of());
    Stmt.IfStmt tail = ifStmt;
    while (tok() == Token.ELIF) {
      Position elifpos = next();
      Expr c = parseTest();
      consume(Token.COLON);
      List<Stmt> b = parseSuite();
      Stmt.IfStmt elif = new Stmt.IfStmt(elifpos, c, b, List.of());
      tail.falseBody = List.of(elif);
      tail = elif;
    }
    if (tok() == Token.ELSE) {
      next();
      consume(Token.COLON);
      tail.falseBody = parseSuite();
    }
    return ifStmt;
  }

  private Stmt parseForStmt() {
    Position forpos = next();
    Expr vars = parseForLoopVariables();
    consume(Token.IN);
    Expr x = parseExpr(false);
    consume(Token.COLON);
    List<Stmt> body = parseSuite();
    return new Stmt.ForStmt(forpos, vars, x, body);
  }

  private Stmt parseWhileStmt() {
    Position whilepos = next();
    Expr cond = parseTest();
    consume(Token.COLON);
    List<Stmt> body = parseSuite();
    return new Stmt.WhileStmt(whilepos, cond, body);
  }

  private Expr parseForLoopVariables() {
    Expr v = parsePrimaryWithSuffix();
    if (tok() != Token.COMMA) {
      return v;
    }
    List<Expr> list = new ArrayList<>();
    list.add(v);
    while (tok() == Token.COMMA) {
      next();
      if (terminatesExprList(tok())) {
        break;
      }
      list.add(parsePrimaryWithSuffix());
    }
    return new Expr.TupleExpr(null, exact(list));
  }

  private void parseSimpleStmt(List<Stmt> stmts) {
    while (true) {
      stmts.add(parseSmallStmt());
      if (tok() != Token.SEMI) {
        break;
      }
      next();
      if (tok() == Token.NEWLINE || tok() == Token.EOF) {
        break;
      }
    }
    if (tok() != Token.EOF) {
      consume(Token.NEWLINE);
    }
  }

  private Stmt parseSmallStmt() {
    switch (tok()) {
      case RETURN -> {
        Position pos = next();
        Expr result = null;
        if (tok() != Token.EOF && tok() != Token.NEWLINE && tok() != Token.SEMI) {
          result = parseExpr(false);
        }
        return new Stmt.ReturnStmt(pos, result);
      }
      case BREAK, CONTINUE, PASS -> {
        Token t = tok();
        Position pos = next();
        return new Stmt.BranchStmt(t, pos);
      }
      case LOAD -> {
        return parseLoadStmt();
      }
      default -> {}
    }
    Expr x = parseExpr(false);
    switch (tok()) {
      case EQ,
          PLUS_EQ,
          MINUS_EQ,
          STAR_EQ,
          SLASH_EQ,
          SLASHSLASH_EQ,
          PERCENT_EQ,
          AMP_EQ,
          PIPE_EQ,
          CIRCUMFLEX_EQ,
          LTLT_EQ,
          GTGT_EQ -> {
        Token op = tok();
        Position pos = next();
        Expr rhs = parseExpr(false);
        return new Stmt.AssignStmt(pos, op, x, rhs);
      }
      default -> {
        return new Stmt.ExprStmt(x);
      }
    }
  }

  private Stmt parseLoadStmt() {
    Position loadPos = next();
    Position lparen = consume(Token.LPAREN);
    if (tok() != Token.STRING) {
      throw errorHere("first operand of load statement must be a string literal");
    }
    Expr.Literal module = (Expr.Literal) parsePrimary();
    List<Ident> to = new ArrayList<>();
    List<Ident> from = new ArrayList<>();
    while (tok() != Token.RPAREN && tok() != Token.EOF) {
      consume(Token.COMMA);
      if (tok() == Token.RPAREN) {
        break;
      }
      switch (tok()) {
        case STRING -> {
          Expr.Literal lit = (Expr.Literal) parsePrimary();
          Ident id =
              new Ident(
                  new Position(lit.pos.file(), lit.pos.line(), lit.pos.col() + 1),
                  (String) lit.value);
          to.add(id);
          from.add(id);
        }
        case IDENT -> {
          Ident id = parseIdent();
          to.add(id);
          if (tok() != Token.EQ) {
            throw errorHere(
                "load operand must be \""
                    + id.name
                    + "\" or "
                    + id.name
                    + "=\"originalname\" (want '=' after "
                    + id.name
                    + ")");
          }
          consume(Token.EQ);
          if (tok() != Token.STRING) {
            throw errorHere(
                "original name of loaded symbol must be quoted: " + id.name + "=\"originalname\"");
          }
          Expr.Literal lit = (Expr.Literal) parsePrimary();
          from.add(
              new Ident(
                  new Position(lit.pos.file(), lit.pos.line(), lit.pos.col() + 1),
                  (String) lit.value));
        }
        default ->
            throw errorHere(
                "load operand must be \"name\" or localname=\"name\" (got "
                    + goString(tok())
                    + ")");
      }
    }
    consume(Token.RPAREN);
    if (to.isEmpty()) {
      throw error(lparen, "load statement must import at least 1 symbol");
    }
    return new Stmt.LoadStmt(loadPos, module, to, from);
  }

  private List<Stmt> parseSuite() {
    if (tok() == Token.NEWLINE) {
      next();
      consume(Token.INDENT);
      List<Stmt> stmts = new ArrayList<>();
      while (tok() != Token.OUTDENT && tok() != Token.EOF) {
        parseStmt(stmts);
      }
      consume(Token.OUTDENT);
      return exact(stmts);
    }
    List<Stmt> stmts = new ArrayList<>();
    parseSimpleStmt(stmts);
    return exact(stmts);
  }

  private Ident parseIdent() {
    if (tok() != Token.IDENT) {
      throw errorHere("not an identifier");
    }
    Ident id = new Ident(in.pos, in.raw);
    next();
    return id;
  }

  private List<Expr> parseParams() {
    List<Expr> params = new ArrayList<>();
    while (tok() != Token.RPAREN && tok() != Token.COLON && tok() != Token.EOF) {
      if (!params.isEmpty()) {
        consume(Token.COMMA);
      }
      if (tok() == Token.RPAREN) {
        break;
      }
      if (tok() == Token.STAR || tok() == Token.STARSTAR) {
        Token op = tok();
        Position pos = next();
        Expr x = null;
        if (op == Token.STARSTAR || tok() == Token.IDENT) {
          x = parseIdent();
        }
        params.add(new Expr.UnaryExpr(pos, op, x));
        continue;
      }
      Ident id = parseIdent();
      if (tok() == Token.EQ) {
        Position eq = next();
        Expr dflt = parseTest();
        params.add(new Expr.BinaryExpr(id, eq, Token.EQ, dflt));
        continue;
      }
      params.add(id);
    }
    return exact(params);
  }

  private Expr parseExpr(boolean inParens) {
    Expr x = parseTest();
    if (tok() != Token.COMMA) {
      return x;
    }
    List<Expr> exprs = new ArrayList<>();
    exprs.add(x);
    parseExprs(exprs, inParens);
    return new Expr.TupleExpr(null, exact(exprs));
  }

  private void parseExprs(List<Expr> exprs, boolean allowTrailingComma) {
    while (tok() == Token.COMMA) {
      Position pos = next();
      if (terminatesExprList(tok())) {
        if (!allowTrailingComma) {
          throw error(pos, "unparenthesized tuple with trailing comma");
        }
        break;
      }
      exprs.add(parseTest());
    }
  }

  private Expr parseTest() {
    enter();
    try {
      if (tok() == Token.LAMBDA) {
        return parseLambda(true);
      }
      Expr x = parseTestPrec(0);
      if (tok() == Token.IF) {
        Position ifpos = next();
        Expr cond = parseTestPrec(0);
        if (tok() != Token.ELSE) {
          throw error(ifpos, "conditional expression without else clause");
        }
        next();
        Expr elseExpr = parseTest();
        return new Expr.CondExpr(ifpos, cond, x, elseExpr);
      }
      return x;
    } finally {
      depth--;
    }
  }

  private Expr parseTestNoCond() {
    if (tok() == Token.LAMBDA) {
      return parseLambda(false);
    }
    return parseTestPrec(0);
  }

  private Expr parseLambda(boolean allowCond) {
    Position lambda = next();
    List<Expr> params = List.of();
    if (tok() != Token.COLON) {
      params = parseParams();
    }
    consume(Token.COLON);
    Expr body = allowCond ? parseTest() : parseTestNoCond();
    return new Expr.LambdaExpr(lambda, params, body);
  }

  /**
   * Parses an expression whose binary operators all have precedence at least {@code prec}
   * (precedence climbing with one loop, so nesting costs few Java frames). Comparisons are
   * non-associative; {@code not} is a prefix operator at its own level.
   */
  private Expr parseTestPrec(int prec) {
    if (prec >= NLEVELS) {
      return parsePrimaryWithSuffix();
    }
    Expr x;
    if (tok() == Token.NOT && prec <= PREC_NOT) {
      enter();
      try {
        Position pos = next();
        Expr operand = parseTestPrec(PREC_NOT);
        x = new Expr.UnaryExpr(pos, Token.NOT, operand);
      } finally {
        depth--;
      }
    } else {
      x = parsePrimaryWithSuffix();
    }
    Token lastCmp = null;
    while (true) {
      if (tok() == Token.NOT) {
        next();
        if (tok() != Token.IN) {
          throw errorHere("got " + goString(tok()) + ", want in");
        }
        in.tok = Token.NOT_IN;
      }
      Integer opprec = PRECEDENCE.get(tok());
      if (opprec == null || opprec < prec || opprec == PREC_NOT) {
        return x;
      }
      if (opprec == PREC_CMP && lastCmp != null) {
        throw errorHere(lastCmp + " does not associate with " + tok() + " (use parens)");
      }
      Token op = tok();
      Position pos = next();
      enter();
      try {
        Expr y = parseTestPrec(opprec + 1);
        x = new Expr.BinaryExpr(x, pos, op, y);
      } finally {
        depth--;
      }
      lastCmp = opprec == PREC_CMP ? op : null;
    }
  }

  private Expr parsePrimaryWithSuffix() {
    Expr x = parsePrimary();
    while (true) {
      switch (tok()) {
        case DOT -> {
          Position dot = next();
          Ident id = parseIdent();
          x = new Expr.DotExpr(x, dot, id);
        }
        case LBRACK -> x = parseSliceSuffix(x);
        case LPAREN -> x = parseCallSuffix(x);
        default -> {
          return x;
        }
      }
    }
  }

  private Expr parseSliceSuffix(Expr x) {
    Position lbrack = next();
    Expr lo = null;
    Expr hi = null;
    Expr step = null;
    if (tok() != Token.COLON) {
      Expr y = parseExpr(false);
      if (tok() == Token.RBRACK) {
        next();
        return new Expr.IndexExpr(x, lbrack, y);
      }
      lo = y;
    }
    if (tok() == Token.COLON) {
      next();
      if (tok() != Token.COLON && tok() != Token.RBRACK) {
        hi = parseTest();
      }
    }
    if (tok() == Token.COLON) {
      next();
      if (tok() != Token.RBRACK) {
        step = parseTest();
      }
    }
    consume(Token.RBRACK);
    return new Expr.SliceExpr(x, lbrack, lo, hi, step);
  }

  private Expr parseCallSuffix(Expr fn) {
    Position lparen = consume(Token.LPAREN);
    Position rparen;
    List<Expr> args = List.of();
    if (tok() == Token.RPAREN) {
      rparen = next();
    } else {
      args = exact(parseArgs());
      rparen = consume(Token.RPAREN);
    }
    return new Expr.CallExpr(fn, lparen, args, rparen);
  }

  private List<Expr> parseArgs() {
    List<Expr> args = new ArrayList<>();
    while (tok() != Token.RPAREN && tok() != Token.EOF) {
      if (!args.isEmpty()) {
        consume(Token.COMMA);
      }
      if (tok() == Token.RPAREN) {
        break;
      }
      if (tok() == Token.STAR || tok() == Token.STARSTAR) {
        Token op = tok();
        Position pos = next();
        Expr x = parseTest();
        args.add(new Expr.UnaryExpr(pos, op, x));
        continue;
      }
      Expr x = parseTest();
      if (tok() == Token.EQ) {
        if (!(x instanceof Ident)) {
          throw errorHere("keyword argument must have form name=expr");
        }
        Position eq = next();
        Expr y = parseTest();
        x = new Expr.BinaryExpr(x, eq, Token.EQ, y);
      }
      args.add(x);
    }
    return args;
  }

  private Expr parsePrimary() {
    switch (tok()) {
      case IDENT -> {
        return parseIdent();
      }
      case INT, FLOAT, STRING, BYTES -> {
        Token t = tok();
        Object val = in.value;
        String raw = in.raw;
        Position pos = next();
        return new Expr.Literal(t, pos, raw, val);
      }
      case LBRACK -> {
        return parseList();
      }
      case LBRACE -> {
        return parseDict();
      }
      case LPAREN -> {
        Position lparen = next();
        if (tok() == Token.RPAREN) {
          next();
          return new Expr.TupleExpr(lparen, List.of());
        }
        Expr e = parseExpr(true);
        consume(Token.RPAREN);
        return new Expr.ParenExpr(lparen, e);
      }
      case MINUS, PLUS, TILDE -> {
        enter();
        try {
          Token t = tok();
          Position pos = next();
          Expr x = parsePrimaryWithSuffix();
          return new Expr.UnaryExpr(pos, t, x);
        } finally {
          depth--;
        }
      }
      default -> throw errorHere("got " + goString(tok()) + ", want primary expression");
    }
  }

  private Expr parseList() {
    Position lbrack = next();
    if (tok() == Token.RBRACK) {
      next();
      return new Expr.ListExpr(lbrack, List.of());
    }
    Expr x = parseTest();
    if (tok() == Token.FOR) {
      return parseComprehensionSuffix(lbrack, x, Token.RBRACK);
    }
    List<Expr> exprs = new ArrayList<>();
    exprs.add(x);
    if (tok() == Token.COMMA) {
      parseExprs(exprs, true);
    }
    consume(Token.RBRACK);
    return new Expr.ListExpr(lbrack, exact(exprs));
  }

  private Expr parseDict() {
    Position lbrace = next();
    if (tok() == Token.RBRACE) {
      next();
      return new Expr.DictExpr(lbrace, List.of());
    }
    Expr.DictEntry x = parseDictEntry();
    if (tok() == Token.FOR) {
      return parseComprehensionSuffix(lbrace, x, Token.RBRACE);
    }
    List<Expr.DictEntry> entries = new ArrayList<>();
    entries.add(x);
    while (tok() == Token.COMMA) {
      next();
      if (tok() == Token.RBRACE) {
        break;
      }
      entries.add(parseDictEntry());
    }
    consume(Token.RBRACE);
    return new Expr.DictExpr(lbrace, exact(entries));
  }

  private Expr.DictEntry parseDictEntry() {
    Expr k = parseTest();
    Position colon = consume(Token.COLON);
    Expr v = parseTest();
    return new Expr.DictEntry(k, colon, v);
  }

  private Expr parseComprehensionSuffix(Position lbrace, Expr body, Token endBrace) {
    List<Expr.Clause> clauses = new ArrayList<>();
    while (tok() != endBrace) {
      if (tok() == Token.FOR) {
        Position pos = next();
        Expr vars = parseForLoopVariables();
        Position inPos = consume(Token.IN);
        Expr x = parseTestPrec(0);
        clauses.add(new Expr.ForClause(pos, vars, inPos, x));
      } else if (tok() == Token.IF) {
        Position pos = next();
        Expr cond = parseTestNoCond();
        clauses.add(new Expr.IfClause(pos, cond));
      } else {
        throw errorHere("got " + goString(tok()) + ", want '" + endBrace + "', for, or if");
      }
    }
    next();
    return new Expr.Comprehension(endBrace == Token.RBRACE, lbrace, body, exact(clauses));
  }

  private static boolean terminatesExprList(Token t) {
    return switch (t) {
      case EOF, NEWLINE, EQ, RBRACE, RBRACK, RPAREN, SEMI -> true;
      default -> false;
    };
  }
}
