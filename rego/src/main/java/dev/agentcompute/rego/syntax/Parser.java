package dev.agentcompute.rego.syntax;

import dev.agentcompute.rego.syntax.Expr.Every;
import dev.agentcompute.rego.syntax.Expr.SomeIn;
import dev.agentcompute.rego.syntax.Expr.SomeVars;
import dev.agentcompute.rego.syntax.Expr.TermForm;
import dev.agentcompute.rego.syntax.Expr.With;
import dev.agentcompute.rego.syntax.Term.ArrayCompr;
import dev.agentcompute.rego.syntax.Term.ArrayTerm;
import dev.agentcompute.rego.syntax.Term.Call;
import dev.agentcompute.rego.syntax.Term.ObjectCompr;
import dev.agentcompute.rego.syntax.Term.ObjectTerm;
import dev.agentcompute.rego.syntax.Term.Ref;
import dev.agentcompute.rego.syntax.Term.Scalar;
import dev.agentcompute.rego.syntax.Term.SetCompr;
import dev.agentcompute.rego.syntax.Term.SetTerm;
import dev.agentcompute.rego.syntax.Term.Var;
import dev.agentcompute.rego.syntax.Token.Kind;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoString;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser for Rego v1 modules, queries and terms. Operator precedence, from
 * loosest: {@code = :=}, {@code in}, {@code == != < > <= >=}, {@code |}, {@code &}, {@code + -},
 * {@code * / %}. A reference step ({@code .x}, {@code [x]}) or call ({@code (}) must follow its
 * term without whitespace; a body literal ends at {@code ;} or a line break. A keyword directly
 * followed by {@code .} or {@code [} is an ordinary name ({@code default.x := 1}).
 */
public final class Parser {
  /** Nesting beyond this depth is a syntax error instead of a deep Java stack. */
  static final int MAX_DEPTH = 200;

  private final List<Token> toks;
  private int i;
  private int depth;
  private int wildcards;

  private Parser(List<Token> toks) {
    this.toks = toks;
  }

  /** Parses one module (a file starting with {@code package}). */
  public static Module parseModule(String file, String source) throws RegoSyntaxError {
    return new Parser(Scanner.scan(file, source)).module(file);
  }

  /** Parses a query: body literals separated by {@code ;} or line breaks. */
  public static List<Expr> parseQuery(String file, String source) throws RegoSyntaxError {
    Parser p = new Parser(Scanner.scan(file, source));
    List<Expr> body = p.literals(Kind.EOF);
    p.expect(Kind.EOF, "expected end of query");
    return body;
  }

  /** Parses a single term, operators allowed (for example a reference or an input value). */
  public static Term parseTerm(String file, String source) throws RegoSyntaxError {
    Parser p = new Parser(Scanner.scan(file, source));
    Term t = p.termIn(null, true);
    p.expect(Kind.EOF, "expected end of term");
    return t;
  }

  // ---- tokens ----

  private Token tok() {
    return toks.get(i);
  }

  private Token peek(int k) {
    return toks.get(Math.min(i + k, toks.size() - 1));
  }

  private void next() {
    if (i < toks.size() - 1) {
      i++;
    }
  }

  private boolean at(Kind k) {
    return tok().kind() == k;
  }

  private boolean atWord(String w) {
    return tok().isIdent(w);
  }

  /** Whether the token after the current one is an adjacent {@code .} or {@code [}. */
  private boolean refFollows() {
    Token n = peek(1);
    return !n.spaceBefore() && (n.is(Kind.DOT) || n.is(Kind.LBRACK));
  }

  private boolean atKeyword() {
    return at(Kind.IDENT) && Keywords.isKeyword(tok().text());
  }

  private boolean adjacent(Kind k) {
    return at(k) && !tok().spaceBefore();
  }

  private RegoSyntaxError unexpected(String note) {
    Token t = tok();
    String what = t.is(Kind.EOF) ? "end of input" : "unexpected " + t.describe();
    return new RegoSyntaxError(t.pos(), note == null ? what : what + ": " + note);
  }

  private void expect(Kind k, String note) throws RegoSyntaxError {
    if (!at(k)) {
      throw unexpected(note);
    }
    next();
  }

  private void enter() throws RegoSyntaxError {
    if (++depth > MAX_DEPTH) {
      throw new RegoSyntaxError(tok().pos(), "max parsing recursion depth exceeded");
    }
  }

  private void leave() {
    depth--;
  }

  // ---- module ----

  private Module module(String file) throws RegoSyntaxError {
    Token first = tok();
    if (!atWord("package") || refFollows()) {
      throw unexpected("expected package declaration");
    }
    next();
    List<String> pkg = packagePath();
    List<Module.Import> imports = new ArrayList<>();
    List<Rule> rules = new ArrayList<>();
    while (atWord("import") && !refFollows()) {
      Module.Import imp = importDecl();
      if (imp != null) {
        imports.add(imp);
      }
    }
    while (!at(Kind.EOF)) {
      if (atWord("package") && !refFollows()) {
        throw unexpected("a file holds one package");
      }
      if (atWord("import") && !refFollows()) {
        throw unexpected("imports must come before rules");
      }
      rules.add(rule());
    }
    return new Module(
        file, first.pos(), List.copyOf(pkg), List.copyOf(imports), List.copyOf(rules));
  }

  private String name(String note) throws RegoSyntaxError {
    if (!at(Kind.IDENT)) {
      throw unexpected(note);
    }
    String s = tok().text();
    next();
    return s;
  }

  private List<String> packagePath() throws RegoSyntaxError {
    List<String> path = new ArrayList<>();
    path.add(name("expected package path"));
    while (true) {
      if (adjacent(Kind.DOT)) {
        next();
        path.add(name("expected name after ."));
      } else if (adjacent(Kind.LBRACK)) {
        next();
        if (!at(Kind.STRING)) {
          throw unexpected("expected string in package path");
        }
        path.add(tok().text());
        next();
        expect(Kind.RBRACK, "expected ]");
      } else {
        return path;
      }
    }
  }

  /** One import; null for {@code rego.v1} and {@code future.keywords} (no-ops in Rego v1). */
  private Module.Import importDecl() throws RegoSyntaxError {
    Token start = tok();
    next();
    Token rootTok = tok();
    String root = name("expected import path");
    List<Term> path = new ArrayList<>();
    path.add(new Var(root, rootTok.pos()));
    while (true) {
      if (adjacent(Kind.DOT)) {
        next();
        Token t = tok();
        path.add(new Scalar(RegoString.of(name("expected name after .")), t.pos()));
      } else if (adjacent(Kind.LBRACK)) {
        next();
        if (!at(Kind.STRING)) {
          throw unexpected("expected string in import path");
        }
        path.add(new Scalar(RegoString.of(tok().text()), tok().pos()));
        next();
        expect(Kind.RBRACK, "expected ]");
      } else {
        break;
      }
    }
    String alias = null;
    if (atWord("as") && !refFollows()) {
      next();
      if (!at(Kind.IDENT) || atKeyword()) {
        throw unexpected("expected var");
      }
      alias = tok().text();
      next();
    }
    switch (root) {
      case "data", "input" -> {
        Term last = path.get(path.size() - 1);
        String lastName =
            last instanceof Var v ? v.name() : ((RegoString) ((Scalar) last).value()).value();
        if (alias == null && Keywords.isKeyword(lastName)) {
          throw new RegoSyntaxError(
              last.pos(), "unexpected import path, must not end with a keyword, got: " + lastName);
        }
        return new Module.Import(start.pos(), List.copyOf(path), alias);
      }
      case "future" -> {
        return null;
      }
      case "rego" -> {
        if (path.size() == 2 && ((Scalar) path.get(1)).value().equals(RegoString.of("v1"))) {
          return null;
        }
        throw new RegoSyntaxError(rootTok.pos(), "invalid import, must be `rego.v1`");
      }
      default ->
          throw new RegoSyntaxError(
              rootTok.pos(),
              "unexpected import path, must begin with one of: {data, future, input, rego}, got: "
                  + root);
    }
  }

  // ---- rules ----

  private Rule rule() throws RegoSyntaxError {
    Token start = tok();
    boolean isDefault = false;
    if (atWord("default") && !refFollows()) {
      isDefault = true;
      next();
    }
    if (!at(Kind.IDENT) || (atKeyword() && !refFollows())) {
      throw unexpected("expected rule head");
    }
    Token nameTok = tok();
    Var head = new Var(nameTok.text(), nameTok.pos());
    next();
    List<Term> path = new ArrayList<>();
    List<Term> args = null;
    while (true) {
      if (adjacent(Kind.DOT)) {
        next();
        Token t = tok();
        path.add(new Scalar(RegoString.of(name("expected name after .")), t.pos()));
      } else if (adjacent(Kind.LBRACK)) {
        next();
        path.add(termIn(null, true));
        expect(Kind.RBRACK, "expected ]");
      } else if (adjacent(Kind.LPAREN)) {
        next();
        args = termList(Kind.RPAREN);
        break;
      } else {
        break;
      }
    }
    if (at(Kind.LBRACK) || at(Kind.DOT)) {
      throw unexpected("no whitespace is allowed inside a rule head reference");
    }
    Ref ref = new Ref(head, List.copyOf(path), nameTok.pos());
    Rule.Kind kind = Rule.Kind.VALUE;
    Term value = null;
    if (atWord("contains") && !refFollows()) {
      if (args != null) {
        throw unexpected("the contains keyword can only be used with multi-value rule definitions");
      }
      next();
      kind = Rule.Kind.CONTAINS;
      value = termIn(null, true);
    } else if (at(Kind.ASSIGN) || at(Kind.UNIFY)) {
      next();
      value = termIn(null, true);
    }
    if (isDefault) {
      if (value == null) {
        throw new RegoSyntaxError(start.pos(), "illegal default rule (must have a value)");
      }
      if (kind == Rule.Kind.CONTAINS) {
        throw new RegoSyntaxError(start.pos(), "illegal default rule (cannot be multi-value)");
      }
      String bad = nonConstant(value);
      if (bad != null) {
        throw new RegoSyntaxError(
            start.pos(), "illegal default rule (value cannot contain " + bad + ")");
      }
      if (args != null) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Term a : args) {
          if (!(a instanceof Var v)) {
            throw new RegoSyntaxError(
                start.pos(), "illegal default rule (arguments cannot contain " + kindName(a) + ")");
          }
          if (!v.isWildcard() && !seen.add(v.name())) {
            throw new RegoSyntaxError(
                start.pos(),
                "illegal default rule (arguments cannot be repeated " + v.name() + ")");
          }
        }
      }
      return new Rule(start.pos(), true, ref, args, kind, value, List.of(), List.of());
    }
    boolean hasIf = atWord("if") && !refFollows();
    if (!hasIf && kind == Rule.Kind.VALUE && value == null && args == null && path.size() == 1) {
      // `p[x]` alone: the old partial-set form.
      kind = Rule.Kind.CONTAINS;
      value = path.get(0);
      ref = new Ref(head, List.of(), nameTok.pos());
    }
    List<Expr> body = List.of();
    if (hasIf) {
      next();
      body = ifBody();
    } else if (at(Kind.LBRACE)) {
      throw unexpected("`if` keyword is required before rule body");
    } else if (value == null && kind == Rule.Kind.VALUE) {
      throw new RegoSyntaxError(nameTok.pos(), "rule " + nameTok.text() + " has no value or body");
    }
    List<Rule.Else> elses = new ArrayList<>();
    while (atWord("else") && !refFollows()) {
      if (kind == Rule.Kind.CONTAINS) {
        throw unexpected("else keyword cannot be used on multi-value rules");
      }
      elses.add(elseClause());
    }
    return new Rule(start.pos(), false, ref, args, kind, value, body, List.copyOf(elses));
  }

  /**
   * What in a default value is not a constant ({@code var}, {@code ref}, {@code call}), or null.
   */
  private static String nonConstant(Term t) {
    return switch (t) {
      case Var v -> "var";
      case Ref r -> "ref";
      case Term.Call c -> "call";
      case ArrayTerm a -> firstNonConstant(a.items());
      case SetTerm st -> firstNonConstant(st.items());
      case ObjectTerm o -> {
        String k = firstNonConstant(o.keys());
        yield k != null ? k : firstNonConstant(o.values());
      }
      default -> null; // scalars and comprehensions (closures are allowed)
    };
  }

  private static String firstNonConstant(List<Term> ts) {
    for (Term t : ts) {
      String b = nonConstant(t);
      if (b != null) {
        return b;
      }
    }
    return null;
  }

  private static String kindName(Term t) {
    return switch (t) {
      case Scalar s -> s.value().typeName();
      case ArrayTerm a -> "array";
      case ObjectTerm o -> "object";
      case SetTerm st -> "set";
      default -> "ref";
    };
  }

  private Rule.Else elseClause() throws RegoSyntaxError {
    Token start = tok();
    next();
    Term value = null;
    if (at(Kind.ASSIGN) || at(Kind.UNIFY)) {
      next();
      value = termIn(null, true);
    } else if (!at(Kind.LBRACE) && !atWord("if")) {
      throw unexpected("expected else value term or rule body");
    }
    List<Expr> body = List.of();
    if (atWord("if") && !refFollows()) {
      next();
      body = ifBody();
    } else if (at(Kind.LBRACE)) {
      next();
      body = literals(Kind.RBRACE);
      expect(Kind.RBRACE, "expected }");
    }
    return new Rule.Else(start.pos(), value, body);
  }

  /**
   * After {@code if}: a single literal, or a braced body. {@code {...}} is first tried as a literal
   * (it may be an object), but a set literal is never meant, so that reads as a body.
   */
  private List<Expr> ifBody() throws RegoSyntaxError {
    int save = i;
    int saveWild = wildcards;
    if (at(Kind.LBRACE)) {
      try {
        Expr e = literal();
        if (!(e.form() instanceof TermForm tf && tf.term() instanceof SetTerm)) {
          checkLiteralEnd(Kind.EOF);
          return List.of(e);
        }
      } catch (RegoSyntaxError ignored) {
        // not a single literal: parse a braced body below
      }
      i = save;
      wildcards = saveWild;
      next();
      List<Expr> body = literals(Kind.RBRACE);
      expect(Kind.RBRACE, "expected }");
      return body;
    }
    return List.of(literal());
  }

  /** A single-literal body must end at a line break, `;` is not allowed there. */
  private void checkLiteralEnd(Kind end) throws RegoSyntaxError {
    if (!at(Kind.EOF) && !at(end) && !tok().lineBefore() && !atWord("else")) {
      throw unexpected(null);
    }
  }

  // ---- bodies and literals ----

  /** Literals separated by {@code ;} or line breaks, up to (not consuming) {@code end}. */
  private List<Expr> literals(Kind end) throws RegoSyntaxError {
    enter();
    try {
      if (at(end)) {
        throw new RegoSyntaxError(tok().pos(), "found empty body");
      }
      List<Expr> body = new ArrayList<>();
      while (true) {
        body.add(literal());
        if (at(Kind.SEMI)) {
          next();
          continue;
        }
        if (at(end)) {
          return body;
        }
        if (!tok().lineBefore()) {
          throw unexpected(
              "expected \\n or ; or " + (end == Kind.EOF ? "end of input" : end.symbol));
        }
      }
    } finally {
      leave();
    }
  }

  private Expr literal() throws RegoSyntaxError {
    Token start = tok();
    boolean keywordRef = atKeyword() && refFollows();
    boolean negated = false;
    if (!keywordRef && atWord("not")) {
      negated = true;
      next();
    }
    Expr.Form form;
    if (!keywordRef && atWord("some") && !refFollows()) {
      if (negated) {
        throw unexpected("illegal negation of 'some'");
      }
      form = some();
    } else if (!keywordRef && atWord("every") && !refFollows()) {
      if (negated) {
        throw unexpected("illegal negation of 'every'");
      }
      form = every();
    } else {
      form = new TermForm(exprTerm());
    }
    List<With> withs = List.of();
    if (atWord("with") && !refFollows()) {
      withs = withs();
    }
    return new Expr(start.pos(), negated, form, withs);
  }

  private Term exprTerm() throws RegoSyntaxError {
    Term lhs = termIn(null, true);
    if (at(Kind.ASSIGN) || at(Kind.UNIFY)) {
      Token op = tok();
      next();
      Term rhs = termIn(null, true);
      String name = op.is(Kind.ASSIGN) ? "assign" : "eq";
      return new Call(new Var(name, op.pos()), name, List.of(lhs, rhs), lhs.pos());
    }
    return lhs;
  }

  private List<With> withs() throws RegoSyntaxError {
    List<With> out = new ArrayList<>();
    while (atWord("with") && !refFollows()) {
      Token w = tok();
      next();
      if (!at(Kind.IDENT)) {
        throw unexpected("expected ident");
      }
      Term target = primary();
      if (!(target instanceof Var) && !(target instanceof Ref)) {
        throw new RegoSyntaxError(target.pos(), "expected with target path");
      }
      if (!atWord("as")) {
        throw unexpected("expected as keyword");
      }
      next();
      out.add(new With(target, termIn(null, true), w.pos()));
    }
    return List.copyOf(out);
  }

  private Expr.Form some() throws RegoSyntaxError {
    next();
    int save = i;
    int saveWild = wildcards;
    try {
      Term t = termIn(null, true);
      if (t instanceof Call c && "internal.member_2".equals(c.operator())) {
        return new SomeIn(null, c.args().get(0), c.args().get(1));
      }
      if (t instanceof Call c && "internal.member_3".equals(c.operator())) {
        return new SomeIn(c.args().get(0), c.args().get(1), c.args().get(2));
      }
    } catch (RegoSyntaxError ignored) {
      // not `some x in xs`: a declaration list
    }
    i = save;
    wildcards = saveWild;
    List<Var> vars = new ArrayList<>();
    while (true) {
      if (!at(Kind.IDENT) || atKeyword()) {
        throw unexpected("expected var");
      }
      vars.add(new Var(tok().text(), tok().pos()));
      next();
      if (!at(Kind.COMMA)) {
        return new SomeVars(List.copyOf(vars));
      }
      next();
    }
  }

  private Expr.Form every() throws RegoSyntaxError {
    Token start = tok();
    next();
    Term t = termIn(null, true);
    Var key = null;
    Term value;
    Term domain;
    if (t instanceof Call c && "internal.member_2".equals(c.operator())) {
      value = c.args().get(0);
      domain = c.args().get(1);
    } else if (t instanceof Call c && "internal.member_3".equals(c.operator())) {
      if (!(c.args().get(0) instanceof Var k)) {
        throw new RegoSyntaxError(c.args().get(0).pos(), "expected key to be a variable");
      }
      key = k;
      value = c.args().get(1);
      domain = c.args().get(2);
    } else {
      throw new RegoSyntaxError(start.pos(), "expected `x[, y] in xs { ... }` expression");
    }
    if (!(value instanceof Var v)) {
      throw new RegoSyntaxError(value.pos(), "expected value to be a variable");
    }
    if (!at(Kind.LBRACE)) {
      throw unexpected("missing body");
    }
    next();
    List<Expr> body = literals(Kind.RBRACE);
    expect(Kind.RBRACE, "expected }");
    return new Every(key, v, domain, body);
  }

  // ---- operators ----

  private Term termIn(Term lhs, boolean keyVal) throws RegoSyntaxError {
    enter();
    try {
      if (lhs == null) {
        lhs = relation();
      }
      if (keyVal && at(Kind.COMMA)) {
        int save = i;
        int saveWild = wildcards;
        next();
        try {
          Term mhs = relation();
          if (atWord("in") && !refFollows()) {
            Token op = tok();
            next();
            Term rhs = relation();
            Term call = member(op, "internal.member_3", List.of(lhs, mhs, rhs), lhs.pos());
            return atWord("in") && !refFollows() ? termIn(call, keyVal) : call;
          }
        } catch (RegoSyntaxError ignored) {
          // a comma that separates list items, not `k, v in xs`
        }
        i = save;
        wildcards = saveWild;
      }
      if (atWord("in") && !refFollows()) {
        Token op = tok();
        next();
        Term rhs = relation();
        Term call = member(op, "internal.member_2", List.of(lhs, rhs), lhs.pos());
        return atWord("in") && !refFollows() ? termIn(call, keyVal) : call;
      }
      return lhs;
    } finally {
      leave();
    }
  }

  private static Term member(Token op, String name, List<Term> args, Position pos) {
    return new Call(new Var(name, op.pos()), name, args, pos);
  }

  private Term relation() throws RegoSyntaxError {
    Term lhs = or();
    while (true) {
      String op =
          switch (tok().kind()) {
            case EQ -> "equal";
            case NEQ -> "neq";
            case LT -> "lt";
            case GT -> "gt";
            case LTE -> "lte";
            case GTE -> "gte";
            default -> null;
          };
      if (op == null) {
        return lhs;
      }
      lhs = binary(op, lhs, this::or);
    }
  }

  private Term or() throws RegoSyntaxError {
    Term lhs = and();
    while (at(Kind.BAR)) {
      lhs = binary("or", lhs, this::and);
    }
    return lhs;
  }

  private Term and() throws RegoSyntaxError {
    Term lhs = arith();
    while (at(Kind.AMP)) {
      lhs = binary("and", lhs, this::arith);
    }
    return lhs;
  }

  private Term arith() throws RegoSyntaxError {
    Term lhs = factor();
    while (at(Kind.PLUS) || at(Kind.MINUS)) {
      lhs = binary(at(Kind.PLUS) ? "plus" : "minus", lhs, this::factor);
    }
    return lhs;
  }

  private Term factor() throws RegoSyntaxError {
    Term lhs = primary();
    while (at(Kind.STAR) || at(Kind.SLASH) || at(Kind.PERCENT)) {
      String op = at(Kind.STAR) ? "mul" : at(Kind.SLASH) ? "div" : "rem";
      lhs = binary(op, lhs, this::primary);
    }
    return lhs;
  }

  private interface Operand {
    Term parse() throws RegoSyntaxError;
  }

  private Term binary(String op, Term lhs, Operand rhs) throws RegoSyntaxError {
    Token t = tok();
    next();
    Term r = rhs.parse();
    return new Call(new Var(op, t.pos()), op, List.of(lhs, r), lhs.pos());
  }

  // ---- terms ----

  private Term primary() throws RegoSyntaxError {
    enter();
    try {
      Token t = tok();
      Term term =
          switch (t.kind()) {
            case IDENT -> identifier(t);
            case NUMBER -> {
              next();
              yield number(t, "");
            }
            case MINUS -> {
              next();
              if (at(Kind.NUMBER)) {
                Token n = tok();
                next();
                yield number(n, "-");
              }
              if (at(Kind.DOT) && peek(1).is(Kind.NUMBER)) {
                next();
                Token n = tok();
                next();
                yield number(n, "-0.");
              }
              throw unexpected("expected number");
            }
            case DOT -> {
              if (!peek(1).is(Kind.NUMBER)) {
                throw unexpected(null);
              }
              next();
              Token n = tok();
              next();
              yield number(n, "0.");
            }
            case STRING -> {
              next();
              yield new Scalar(RegoString.of(t.text()), t.pos());
            }
            case LBRACK -> array(t);
            case LBRACE -> setOrObject(t);
            case LPAREN -> {
              next();
              Term inner = termIn(null, true);
              if (!at(Kind.RPAREN)) {
                throw new RegoSyntaxError(tok().pos(), "non-terminated expression");
              }
              next();
              yield inner;
            }
            default -> throw unexpected(null);
          };
      return finish(term);
    } finally {
      leave();
    }
  }

  private Term identifier(Token t) throws RegoSyntaxError {
    String s = t.text();
    boolean ref = refFollows();
    next();
    if (!ref) {
      switch (s) {
        case "true":
          return new Scalar(RegoBoolean.TRUE, t.pos());
        case "false":
          return new Scalar(RegoBoolean.FALSE, t.pos());
        case "null":
          return new Scalar(RegoNull.NULL, t.pos());
        default:
          if (Keywords.isKeyword(s) && !s.equals("contains")) {
            i--;
            throw unexpected(null);
          }
      }
    }
    if (s.equals("_")) {
      return new Var("_$" + wildcards++, t.pos());
    }
    return new Var(s, t.pos());
  }

  private Term number(Token t, String prefix) throws RegoSyntaxError {
    String text = prefix + t.text();
    String digits = t.text();
    if (prefix.isEmpty() || prefix.equals("-")) {
      if (digits.length() > 1
          && digits.charAt(0) == '0'
          && digits.charAt(1) != '.'
          && digits.charAt(1) != 'e'
          && digits.charAt(1) != 'E') {
        throw new RegoSyntaxError(t.pos(), "expected number without leading zero");
      }
    }
    try {
      return new Scalar(RegoNumber.parse(text), t.pos());
    } catch (NumberFormatException e) {
      throw new RegoSyntaxError(t.pos(), "number too big");
    }
  }

  /** Reference steps and calls that directly follow a term. */
  private Term finish(Term head) throws RegoSyntaxError {
    List<Term> path = new ArrayList<>();
    while (true) {
      if (adjacent(Kind.DOT)) {
        next();
        Token n = tok();
        path.add(new Scalar(RegoString.of(name("expected name after .")), n.pos()));
      } else if (adjacent(Kind.LBRACK)) {
        next();
        path.add(termIn(null, true));
        expect(Kind.RBRACK, "expected ]");
      } else if (adjacent(Kind.LPAREN)) {
        Term target = path.isEmpty() ? head : new Ref(head, List.copyOf(path), head.pos());
        if (!isName(target)) {
          throw new RegoSyntaxError(head.pos(), "illegal call (target must be a function name)");
        }
        next();
        List<Term> args = termList(Kind.RPAREN);
        if (target instanceof Var v && v.name().equals("set") && args.isEmpty()) {
          head = new SetTerm(List.of(), head.pos());
        } else {
          head = new Call(target, null, List.copyOf(args), head.pos());
        }
        path = new ArrayList<>();
      } else {
        break;
      }
    }
    if (!path.isEmpty()) {
      return new Ref(head, List.copyOf(path), head.pos());
    }
    if (head instanceof Var v && (v.name().equals("data") || v.name().equals("input"))) {
      return new Ref(head, List.of(), head.pos());
    }
    return head;
  }

  private static boolean isName(Term t) {
    if (t instanceof Var) {
      return true;
    }
    if (t instanceof Ref r && r.head() instanceof Var) {
      for (Term p : r.path()) {
        if (!(p instanceof Scalar s) || !(s.value() instanceof RegoString)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** Comma-separated terms up to and including {@code end} (a trailing comma is allowed). */
  private List<Term> termList(Kind end) throws RegoSyntaxError {
    List<Term> out = new ArrayList<>();
    if (at(end)) {
      next();
      return out;
    }
    while (true) {
      out.add(termIn(null, false));
      if (at(end)) {
        next();
        return out;
      }
      if (!at(Kind.COMMA)) {
        throw unexpected("expected \",\" or \"" + end.symbol + "\"");
      }
      next();
      if (at(end)) {
        next();
        return out;
      }
    }
  }

  private Term array(Token open) throws RegoSyntaxError {
    next();
    if (at(Kind.RBRACK)) {
      next();
      return new ArrayTerm(List.of(), open.pos());
    }
    boolean maybeComprehension = true;
    if (at(Kind.COMMA)) {
      maybeComprehension = false;
      next();
    }
    int save = i;
    int saveWild = wildcards;
    // A primary term first: `[x | ...]` is a comprehension, not an array holding `x | ...`.
    Term head = primary();
    if (at(Kind.BAR) && maybeComprehension) {
      next();
      List<Expr> body = literals(Kind.RBRACK);
      expect(Kind.RBRACK, "expected ]");
      return new ArrayCompr(head, body, open.pos());
    }
    i = save;
    wildcards = saveWild;
    return new ArrayTerm(List.copyOf(termList(Kind.RBRACK)), open.pos());
  }

  private Term setOrObject(Token open) throws RegoSyntaxError {
    next();
    if (at(Kind.RBRACE)) {
      next();
      return new ObjectTerm(List.of(), List.of(), open.pos());
    }
    boolean maybeComprehension = true;
    if (at(Kind.COMMA)) {
      maybeComprehension = false;
      next();
    }
    int save = i;
    int saveWild = wildcards;
    Term head = primary();
    if (at(Kind.BAR) && maybeComprehension) {
      next();
      List<Expr> body = literals(Kind.RBRACE);
      expect(Kind.RBRACE, "expected }");
      return new SetCompr(head, body, open.pos());
    }
    if (at(Kind.COLON)) {
      return object(open, head, maybeComprehension);
    }
    i = save;
    wildcards = saveWild;
    head = termIn(null, false);
    if (at(Kind.COLON)) {
      return object(open, head, maybeComprehension);
    }
    if (at(Kind.RBRACE) || at(Kind.COMMA)) {
      i = save;
      wildcards = saveWild;
      return new SetTerm(List.copyOf(termList(Kind.RBRACE)), open.pos());
    }
    throw unexpected("non-terminated set");
  }

  private Term object(Token open, Term firstKey, boolean maybeComprehension)
      throws RegoSyntaxError {
    next(); // ':'
    int save = i;
    int saveWild = wildcards;
    Term v = primary();
    if (at(Kind.BAR) && maybeComprehension) {
      next();
      List<Expr> body = literals(Kind.RBRACE);
      expect(Kind.RBRACE, "expected }");
      return new ObjectCompr(firstKey, v, body, open.pos());
    }
    i = save;
    wildcards = saveWild;
    List<Term> keys = new ArrayList<>();
    List<Term> values = new ArrayList<>();
    keys.add(firstKey);
    values.add(termIn(null, false));
    while (true) {
      if (at(Kind.RBRACE)) {
        next();
        return new ObjectTerm(List.copyOf(keys), List.copyOf(values), open.pos());
      }
      if (!at(Kind.COMMA)) {
        throw unexpected("non-terminated object");
      }
      next();
      if (at(Kind.RBRACE)) {
        next();
        return new ObjectTerm(List.copyOf(keys), List.copyOf(values), open.pos());
      }
      keys.add(termIn(null, false));
      expect(Kind.COLON, "expected \":\"");
      values.add(termIn(null, false));
    }
  }
}
