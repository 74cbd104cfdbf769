package dev.agentcompute.starlark.syntax;

/**
 * The lexical tokens of Starlark, named as in starlark-go's {@code syntax.Token}. The evaluator's
 * operators are keyed by these tokens too, so the scanner, parser and {@code eval.Operators} agree.
 */
public enum Token {
  ILLEGAL("illegal token"),
  EOF("end of file"),

  NEWLINE("newline"),
  INDENT("indent"),
  OUTDENT("outdent"),

  // Tokens with values
  IDENT("identifier"),
  INT("int literal"),
  FLOAT("float literal"),
  STRING("string literal"),
  BYTES("bytes literal"),

  // Punctuation
  PLUS("+"),
  MINUS("-"),
  STAR("*"),
  SLASH("/"),
  SLASHSLASH("//"),
  PERCENT("%"),
  AMP("&"),
  PIPE("|"),
  CIRCUMFLEX("^"),
  LTLT("<<"),
  GTGT(">>"),
  TILDE("~"),
  DOT("."),
  COMMA(","),
  EQ("="),
  SEMI(";"),
  COLON(":"),
  LPAREN("("),
  RPAREN(")"),
  LBRACK("["),
  RBRACK("]"),
  LBRACE("{"),
  RBRACE("}"),
  LT("<"),
  GT(">"),
  GE(">="),
  LE("<="),
  EQL("=="),
  NEQ("!="),
  PLUS_EQ("+="),
  MINUS_EQ("-="),
  STAR_EQ("*="),
  SLASH_EQ("/="),
  SLASHSLASH_EQ("//="),
  PERCENT_EQ("%="),
  AMP_EQ("&="),
  PIPE_EQ("|="),
  CIRCUMFLEX_EQ("^="),
  LTLT_EQ("<<="),
  GTGT_EQ(">>="),
  STARSTAR("**"),

  // Keywords
  AND("and"),
  BREAK("break"),
  CONTINUE("continue"),
  DEF("def"),
  ELIF("elif"),
  ELSE("else"),
  FOR("for"),
  IF("if"),
  IN("in"),
  LAMBDA("lambda"),
  LOAD("load"),
  NOT("not"),
  NOT_IN("not in"), // synthesized by the parser for "not in"
  OR("or"),
  PASS("pass"),
  RETURN("return"),
  WHILE("while");

  private final String text;

  Token(String text) {
    this.text = text;
  }

  /** The token as starlark-go prints it in messages, e.g. {@code "+"} or {@code "not in"}. */
  @Override
  public String toString() {
    return text;
  }
}
