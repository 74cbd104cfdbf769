package dev.agentcompute.rego.syntax;

/**
 * One token. {@code text} is the source text (for strings: the decoded value); {@code
 * spaceBefore}/{@code lineBefore} record whether whitespace or a line break precedes it, which
 * decides whether a {@code [} continues a reference and where a body literal ends.
 */
record Token(Kind kind, String text, Position pos, boolean spaceBefore, boolean lineBefore) {

  enum Kind {
    IDENT,
    STRING,
    NUMBER,
    LBRACE("{"),
    RBRACE("}"),
    LBRACK("["),
    RBRACK("]"),
    LPAREN("("),
    RPAREN(")"),
    DOT("."),
    COMMA(","),
    SEMI(";"),
    COLON(":"),
    ASSIGN(":="),
    UNIFY("="),
    EQ("=="),
    NEQ("!="),
    LT("<"),
    LTE("<="),
    GT(">"),
    GTE(">="),
    PLUS("+"),
    MINUS("-"),
    STAR("*"),
    SLASH("/"),
    PERCENT("%"),
    BAR("|"),
    AMP("&"),
    EOF("end of input");

    final String symbol;

    Kind() {
      this.symbol = null;
    }

    Kind(String symbol) {
      this.symbol = symbol;
    }
  }

  boolean is(Kind k) {
    return kind == k;
  }

  boolean isIdent(String word) {
    return kind == Kind.IDENT && text.equals(word);
  }

  /** How the token reads in an error message. */
  String describe() {
    return switch (kind) {
      case IDENT ->
          Keywords.isKeyword(text) ? "keyword \"" + text + "\"" : "identifier \"" + text + "\"";
      case STRING -> "string";
      case NUMBER -> "number " + text;
      case EOF -> "end of input";
      default -> "\"" + kind.symbol + "\"";
    };
  }
}
