package dev.agentcompute.rego.syntax;

import dev.agentcompute.rego.syntax.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits Rego source into tokens. The whole file is scanned up front so the parser can look ahead
 * and back freely. Comments ({@code #} to end of line) and whitespace are dropped, but each token
 * records whether whitespace or a line break came before it.
 */
final class Scanner {
  /** Sources above this size are rejected rather than scanned (policies are small). */
  static final int MAX_SOURCE_CHARS = 4 * 1024 * 1024;

  private final String file;
  private final String src;
  private int pos;
  private int line = 1;
  private int lineStart;

  private Scanner(String file, String src) {
    this.file = file;
    this.src = src;
  }

  static List<Token> scan(String file, String src) throws RegoSyntaxError {
    if (src.length() > MAX_SOURCE_CHARS) {
      throw new RegoSyntaxError(
          new Position(file, 1, 1), "source exceeds " + MAX_SOURCE_CHARS + " characters");
    }
    return new Scanner(file, src).all();
  }

  private Position here() {
    return new Position(file, line, pos - lineStart + 1);
  }

  private List<Token> all() throws RegoSyntaxError {
    List<Token> out = new ArrayList<>();
    while (true) {
      boolean space = false;
      boolean newline = false;
      while (pos < src.length()) {
        char c = src.charAt(pos);
        if (c == '\n') {
          newline = true;
          space = true;
          pos++;
          line++;
          lineStart = pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
          space = true;
          pos++;
        } else if (c == '#') {
          while (pos < src.length() && src.charAt(pos) != '\n') {
            pos++;
          }
          space = true;
        } else {
          break;
        }
      }
      Position start = here();
      if (pos >= src.length()) {
        out.add(new Token(Kind.EOF, "", start, space, newline || out.isEmpty()));
        return out;
      }
      out.add(next(start, space, newline));
    }
  }

  private Token next(Position start, boolean space, boolean newline) throws RegoSyntaxError {
    char c = src.charAt(pos);
    if (isIdentStart(c)) {
      int s = pos;
      while (pos < src.length() && isIdentPart(src.codePointAt(pos))) {
        pos += Character.charCount(src.codePointAt(pos));
      }
      return new Token(Kind.IDENT, src.substring(s, pos), start, space, newline);
    }
    if (c >= '0' && c <= '9') {
      return new Token(Kind.NUMBER, number(start), start, space, newline);
    }
    if (c == '"') {
      return new Token(Kind.STRING, string(start), start, space, newline);
    }
    if (c == '`') {
      return new Token(Kind.STRING, rawString(start), start, space, newline);
    }
    Kind k = operator(c);
    if (k == null) {
      throw new RegoSyntaxError(
          start, "illegal token '" + new String(Character.toChars(src.codePointAt(pos))) + "'");
    }
    pos += k.symbol.length();
    return new Token(k, k.symbol, start, space, newline);
  }

  private Kind operator(char c) {
    char n = pos + 1 < src.length() ? src.charAt(pos + 1) : '\0';
    return switch (c) {
      case '{' -> Kind.LBRACE;
      case '}' -> Kind.RBRACE;
      case '[' -> Kind.LBRACK;
      case ']' -> Kind.RBRACK;
      case '(' -> Kind.LPAREN;
      case ')' -> Kind.RPAREN;
      case '.' -> Kind.DOT;
      case ',' -> Kind.COMMA;
      case ';' -> Kind.SEMI;
      case ':' -> n == '=' ? Kind.ASSIGN : Kind.COLON;
      case '=' -> n == '=' ? Kind.EQ : Kind.UNIFY;
      case '!' -> n == '=' ? Kind.NEQ : null;
      case '<' -> n == '=' ? Kind.LTE : Kind.LT;
      case '>' -> n == '=' ? Kind.GTE : Kind.GT;
      case '+' -> Kind.PLUS;
      case '-' -> Kind.MINUS;
      case '*' -> Kind.STAR;
      case '/' -> Kind.SLASH;
      case '%' -> Kind.PERCENT;
      case '|' -> Kind.BAR;
      case '&' -> Kind.AMP;
      default -> null;
    };
  }

  static boolean isIdentStart(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (c > 0x7f && Character.isLetter(c));
  }

  static boolean isIdentPart(int c) {
    return isIdentStart(c) || (c >= '0' && c <= '9') || (c > 0x7f && Character.isDigit(c));
  }

  private String number(Position start) throws RegoSyntaxError {
    int s = pos;
    digits();
    if (pos + 1 < src.length() && src.charAt(pos) == '.' && isDigit(src.charAt(pos + 1))) {
      pos++;
      digits();
    }
    if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
      int save = pos;
      pos++;
      if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
        pos++;
      }
      if (pos < src.length() && isDigit(src.charAt(pos))) {
        digits();
      } else {
        pos = save;
      }
    }
    if (pos < src.length() && isIdentStart(src.charAt(pos))) {
      throw new RegoSyntaxError(start, "illegal number format");
    }
    return src.substring(s, pos);
  }

  private void digits() {
    while (pos < src.length() && isDigit(src.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private String string(Position start) throws RegoSyntaxError {
    pos++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= src.length() || src.charAt(pos) == '\n') {
        throw new RegoSyntaxError(start, "non-terminated string");
      }
      char c = src.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= src.length()) {
        throw new RegoSyntaxError(start, "non-terminated string");
      }
      char e = src.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          int cp = hex4(start);
          if (Character.isHighSurrogate((char) cp)
              && pos + 1 < src.length()
              && src.charAt(pos) == '\\'
              && src.charAt(pos + 1) == 'u') {
            pos += 2;
            int low = hex4(start);
            b.append((char) cp).append((char) low);
          } else {
            b.append((char) cp);
          }
        }
        default ->
            throw new RegoSyntaxError(start, "illegal escape sequence \\" + e + " in string");
      }
    }
  }

  private int hex4(Position start) throws RegoSyntaxError {
    if (pos + 4 > src.length()) {
      throw new RegoSyntaxError(start, "illegal \\u escape in string");
    }
    try {
      int v = Integer.parseInt(src.substring(pos, pos + 4), 16);
      pos += 4;
      return v;
    } catch (NumberFormatException e) {
      throw new RegoSyntaxError(start, "illegal \\u escape in string");
    }
  }

  private String rawString(Position start) throws RegoSyntaxError {
    pos++;
    int s = pos;
    while (pos < src.length() && src.charAt(pos) != '`') {
      if (src.charAt(pos) == '\n') {
        line++;
        lineStart = pos + 1;
      }
      pos++;
    }
    if (pos >= src.length()) {
      throw new RegoSyntaxError(start, "non-terminated raw string");
    }
    return src.substring(s, pos++);
  }
}
