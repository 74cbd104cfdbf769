package dev.agentcompute.starlark.syntax;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The lexical scanner, following starlark-go's scan.go: indentation becomes INDENT/OUTDENT tokens,
 * newlines inside brackets are ignored, columns count code points and tabs in indentation advance
 * to the next multiple of 8.
 */
final class Scanner {
  /** The one-character escapes after a backslash, and the bytes they stand for. */
  private static final String SIMPLE_ESCAPES = "abfnrtv\\'\"";

  private static final byte[] SIMPLE_ESCAPE_BYTES = {7, 8, 12, 10, 13, 9, 11, '\\', '\'', '"'};

  private static final Map<String, Token> KEYWORDS =
      Map.ofEntries(
          Map.entry("and", Token.AND),
          Map.entry("break", Token.BREAK),
          Map.entry("continue", Token.CONTINUE),
          Map.entry("def", Token.DEF),
          Map.entry("elif", Token.ELIF),
          Map.entry("else", Token.ELSE),
          Map.entry("for", Token.FOR),
          Map.entry("if", Token.IF),
          Map.entry("in", Token.IN),
          Map.entry("lambda", Token.LAMBDA),
          Map.entry("load", Token.LOAD),
          Map.entry("not", Token.NOT),
          Map.entry("or", Token.OR),
          Map.entry("pass", Token.PASS),
          Map.entry("return", Token.RETURN),
          Map.entry("while", Token.WHILE),
          // reserved words ("assert" is deliberately not reserved)
          Map.entry("as", Token.ILLEGAL),
          Map.entry("async", Token.ILLEGAL),
          Map.entry("await", Token.ILLEGAL),
          Map.entry("class", Token.ILLEGAL),
          Map.entry("del", Token.ILLEGAL),
          Map.entry("except", Token.ILLEGAL),
          Map.entry("finally", Token.ILLEGAL),
          Map.entry("from", Token.ILLEGAL),
          Map.entry("global", Token.ILLEGAL),
          Map.entry("import", Token.ILLEGAL),
          Map.entry("is", Token.ILLEGAL),
          Map.entry("nonlocal", Token.ILLEGAL),
          Map.entry("raise", Token.ILLEGAL),
          Map.entry("try", Token.ILLEGAL),
          Map.entry("with", Token.ILLEGAL),
          Map.entry("yield", Token.ILLEGAL));

  private final String file;
  private final int[] cps; // code points of the source
  private int off; // index into cps
  private int line = 1;
  private int col = 1;
  private int depth; // nesting of brackets
  private int[] indentstk = new int[16];
  private int indentLen = 1;
  private int dents;
  private boolean lineStart = true;

  // The current token.
  Token tok;
  Position pos;
  String raw;
  Object value; // Long, BigInteger, Double, String (STRING), byte[] (BYTES), identifier String
  private int tokStart;

  Scanner(String file, String src) {
    this.file = file;
    this.cps = src.codePoints().toArray();
  }

  Position here() {
    return new Position(file, line, col);
  }

  private ParseFailure error(Position p, String msg) {
    return new ParseFailure(p, msg);
  }

  private int peek() {
    if (off >= cps.length) {
      return 0;
    }
    int c = cps[off];
    return c == '\r' ? '\n' : c;
  }

  private int peekAt(int k) {
    return off + k < cps.length ? cps[off + k] : -1;
  }

  private int read() {
    int c = cps[off++];
    if (c == '\r') {
      if (off < cps.length && cps[off] == '\n') {
        off++;
      }
      c = '\n';
    }
    if (c == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
    return c;
  }

  private boolean eof() {
    return off >= cps.length;
  }

  private void startToken() {
    tokStart = off;
    pos = here();
    raw = null;
    value = null;
  }

  private void endToken() {
    if (raw == null) {
      raw = new String(cps, tokStart, off - tokStart);
    }
  }

  /** Advances to the next token. */
  void next() {
    tok = scan();
  }

  private Token scan() {
    while (true) {
      int c;
      boolean blank = false;
      boolean savedLineStart = lineStart;
      if (lineStart) {
        lineStart = false;
        int column = 0;
        while (true) {
          c = peek();
          if (c == ' ') {
            column++;
            read();
          } else if (c == '\t') {
            column += 8 - (col - 1) % 8;
            read();
          } else {
            break;
          }
        }
        if (c == '#' || c == '\n' || c == 0) {
          blank = true;
        }
        if (!blank && depth == 0) {
          int cur = indentstk[indentLen - 1];
          if (column > cur) {
            dents++;
            if (indentLen == indentstk.length) {
              indentstk = Arrays.copyOf(indentstk, indentLen * 2);
            }
            indentstk[indentLen++] = column;
          } else if (column < cur) {
            while (indentLen > 0 && column < indentstk[indentLen - 1]) {
              dents--;
              indentLen--;
            }
            if (indentLen == 0 || column != indentstk[indentLen - 1]) {
              throw error(here(), "unindent does not match any outer indentation level");
            }
          }
        }
      }

      if (dents != 0) {
        startToken();
        endToken();
        if (dents < 0) {
          dents++;
          return Token.OUTDENT;
        }
        dents--;
        return Token.INDENT;
      }

      c = peek();
      while (c == ' ' || c == '\t') {
        read();
        c = peek();
      }
      if (c == '#') {
        while (c != 0 && c != '\n') {
          read();
          c = peek();
        }
      }
      if (c == '\n') {
        lineStart = true;
        if (blank || depth > 0) {
          read();
          continue;
        }
        startToken();
        read();
        raw = "\n";
        return Token.NEWLINE;
      }
      if (c == 0 && eof()) {
        if (indentLen > 1) {
          if (savedLineStart) {
            dents = 1 - indentLen;
            indentLen = 1;
            continue;
          }
          lineStart = true;
          startToken();
          raw = "\n";
          return Token.NEWLINE;
        }
        startToken();
        endToken();
        return Token.EOF;
      }
      if (c == '\\') {
        read();
        if (peek() != '\n') {
          throw error(here(), "stray backslash in program");
        }
        read();
        continue;
      }

      startToken();
      if (c == ',') {
        read();
        endToken();
        return Token.COMMA;
      }
      if (c == '"' || c == '\'') {
        return scanString(c);
      }
      if (isIdentStart(c)) {
        int c1 = peekAt(1);
        if ((c == 'r' || c == 'b') && (c1 == '"' || c1 == '\'')) {
          read();
          return scanString(peek());
        }
        int c2 = peekAt(2);
        if (((c == 'r' && c1 == 'b') || (c == 'b' && c1 == 'r')) && (c2 == '"' || c2 == '\'')) {
          read();
          read();
          return scanString(peek());
        }
        while (isIdent(c)) {
          read();
          c = peek();
        }
        endToken();
        Token k = KEYWORDS.get(raw);
        if (k != null) {
          return k;
        }
        // Interned: every use of a name shares one String, as do programs compiled repeatedly
        // (the JVM's string table is weak, so unused names are still collected).
        raw = raw.intern();
        value = raw;
        return Token.IDENT;
      }
      switch (c) {
        case '[', '(', '{' -> {
          depth++;
          read();
          endToken();
          return c == '[' ? Token.LBRACK : c == '(' ? Token.LPAREN : Token.LBRACE;
        }
        case ']', ')', '}' -> {
          if (depth == 0) {
            throw error(here(), "unexpected '" + (char) c + "'");
          }
          depth--;
          read();
          endToken();
          return c == ']' ? Token.RBRACK : c == ')' ? Token.RPAREN : Token.RBRACE;
        }
        default -> {}
      }
      if (isDigit(c) || c == '.') {
        return scanNumber(c);
      }
      Token t = scanPunct(c);
      endToken();
      return t;
    }
  }

  /** After a first {@code c}: {@code c} alone, {@code cc}, or {@code cc=}. */
  private Token doubled(char c, Token single, Token twice, Token twiceAssign) {
    if (peek() != c) {
      return single;
    }
    read();
    if (peek() == '=') {
      read();
      return twiceAssign;
    }
    return twice;
  }

  private Token scanPunct(int c) {
    Position start = here();
    switch (c) {
      case '=', '<', '>', '!', '+', '-', '%', '/', '&', '|', '^' -> {
        read();
        if (peek() == '=') {
          read();
          switch (c) {
            case '<':
              return Token.LE;
            case '>':
              return Token.GE;
            case '=':
              return Token.EQL;
            case '!':
              return Token.NEQ;
            case '+':
              return Token.PLUS_EQ;
            case '-':
              return Token.MINUS_EQ;
            case '/':
              return Token.SLASH_EQ;
            case '%':
              return Token.PERCENT_EQ;
            case '&':
              return Token.AMP_EQ;
            case '|':
              return Token.PIPE_EQ;
            default:
              return Token.CIRCUMFLEX_EQ;
          }
        }
        switch (c) {
          case '=':
            return Token.EQ;
          case '<':
            return doubled('<', Token.LT, Token.LTLT, Token.LTLT_EQ);
          case '>':
            return doubled('>', Token.GT, Token.GTGT, Token.GTGT_EQ);
          case '!':
            throw error(start, "unexpected input character '!'");
          case '+':
            return Token.PLUS;
          case '-':
            return Token.MINUS;
          case '/':
            return doubled('/', Token.SLASH, Token.SLASHSLASH, Token.SLASHSLASH_EQ);
          case '%':
            return Token.PERCENT;
          case '&':
            return Token.AMP;
          case '|':
            return Token.PIPE;
          default:
            return Token.CIRCUMFLEX;
        }
      }
      case ':' -> {
        read();
        return Token.COLON;
      }
      case ';' -> {
        read();
        return Token.SEMI;
      }
      case '~' -> {
        read();
        return Token.TILDE;
      }
      case '*' -> {
        read();
        if (peek() == '*') {
          read();
          return Token.STARSTAR;
        }
        if (peek() == '=') {
          read();
          return Token.STAR_EQ;
        }
        return Token.STAR;
      }
      default -> throw error(here(), "unexpected input character " + quoteRune(c));
    }
  }

  private static String quoteRune(int c) {
    if (c == '`') {
      return "'`'";
    }
    if (c >= 0x20 && c < 0x7f) {
      return "`" + (char) c + "`";
    }
    return "'\\u" + String.format("%04x", c) + "'";
  }

  private Token scanString(int quote) {
    Position start = here();
    boolean triple = peekAt(0) == quote && peekAt(1) == quote && peekAt(2) == quote;
    read();
    if (!triple) {
      while (true) {
        if (eof()) {
          throw error(pos, "unexpected EOF in string");
        }
        int c = read();
        if (c == quote) {
          break;
        }
        if (c == '\n') {
          throw error(pos, "unexpected newline in string");
        }
        if (c == '\\') {
          if (eof()) {
            throw error(pos, "unexpected EOF in string");
          }
          read();
        }
      }
    } else {
      read();
      read();
      int quoteCount = 0;
      while (true) {
        if (eof()) {
          throw error(pos, "unexpected EOF in string");
        }
        int c = read();
        if (c == quote) {
          quoteCount++;
          if (quoteCount == 3) {
            break;
          }
        } else {
          quoteCount = 0;
        }
        if (c == '\\') {
          if (eof()) {
            throw error(pos, "unexpected EOF in string");
          }
          read();
        }
      }
    }
    endToken();
    String err = unquote(raw);
    if (err != null) {
      throw error(start, err);
    }
    return value instanceof byte[] ? Token.BYTES : Token.STRING;
  }

  /** Decodes a string/bytes literal into {@link #value}; returns an error message or null. */
  private String unquote(String quoted) {
    boolean rawStr = false;
    boolean isByte = false;
    if (quoted.startsWith("rb") || quoted.startsWith("br")) {
      rawStr = true;
      isByte = true;
      quoted = quoted.substring(2);
    } else if (quoted.startsWith("r")) {
      rawStr = true;
      quoted = quoted.substring(1);
    } else if (quoted.startsWith("b")) {
      isByte = true;
      quoted = quoted.substring(1);
    }
    char q = quoted.charAt(0);
    if (quoted.length() >= 6 && quoted.charAt(1) == q && quoted.charAt(2) == q) {
      quoted = quoted.substring(3, quoted.length() - 3);
    } else {
      quoted = quoted.substring(1, quoted.length() - 1);
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream(quoted.length());
    int i = 0;
    int n = quoted.length();
    while (i < n) {
      char c = quoted.charAt(i);
      if (c == '\r') {
        buf.write('\n');
        i += (i + 1 < n && quoted.charAt(i + 1) == '\n') ? 2 : 1;
        continue;
      }
      if (c != '\\' || rawStr) {
        int j = i;
        while (j < n && quoted.charAt(j) != '\r' && (rawStr || quoted.charAt(j) != '\\')) {
          j++;
        }
        if (j == i) {
          j = i + 1;
        }
        buf.writeBytes(quoted.substring(i, j).getBytes(StandardCharsets.UTF_8));
        i = j;
        continue;
      }
      if (i + 1 >= n) {
        return "truncated escape sequence \\";
      }
      char e = quoted.charAt(i + 1);
      int simple = SIMPLE_ESCAPES.indexOf(e);
      if (simple >= 0) {
        buf.write(SIMPLE_ESCAPE_BYTES[simple]);
        i += 2;
        continue;
      }
      switch (e) {
        case '\n' -> i += 2;
        case '0', '1', '2', '3', '4', '5', '6', '7' -> {
          int v = e - '0';
          i += 2;
          for (int k = 1; k < 3; k++) {
            if (i >= n || quoted.charAt(i) < '0' || quoted.charAt(i) > '7') {
              break;
            }
            v = v * 8 + (quoted.charAt(i) - '0');
            i++;
          }
          if (!isByte && v > 127) {
            return String.format(
                "non-ASCII octal escape \\%o (use \\u%04X for the UTF-8 encoding of U+%04X)",
                v, v, v);
          }
          if (v >= 256) {
            return String.format("invalid escape sequence \\%03o", v);
          }
          buf.write(v);
        }
        case 'x' -> {
          if (i + 4 > n) {
            return "truncated escape sequence " + quoted.substring(i);
          }
          String hex = quoted.substring(i + 2, i + 4);
          int v = (int) parseHex(hex);
          if (v < 0) {
            return "invalid escape sequence " + quoted.substring(i, i + 4);
          }
          if (!isByte && v > 127) {
            return String.format(
                "non-ASCII hex escape %s (use \\u%04X for the UTF-8 encoding of U+%04X)",
                quoted.substring(i, i + 4), v, v);
          }
          buf.write(v);
          i += 4;
        }
        case 'u', 'U' -> {
          int sz = e == 'U' ? 10 : 6;
          if (i + sz > n) {
            return "truncated escape sequence " + quoted.substring(i);
          }
          long v = parseHex(quoted.substring(i + 2, i + sz));
          if (v < 0) {
            return "invalid escape sequence " + quoted.substring(i, i + sz);
          }
          if (v > 0x10FFFF) {
            return String.format(
                "code point out of range: %s (max \\U%08x)", quoted.substring(i, i + sz), v);
          }
          if (v >= 0xD800 && v < 0xE000) {
            return String.format("invalid Unicode code point U+%04X", v);
          }
          buf.writeBytes(new String(Character.toChars((int) v)).getBytes(StandardCharsets.UTF_8));
          i += sz;
        }
        default -> {
          return "invalid escape sequence \\"
              + new String(Character.toChars(quoted.codePointAt(i + 1)));
        }
      }
    }
    byte[] bytes = buf.toByteArray();
    value = isByte ? bytes : new String(bytes, StandardCharsets.UTF_8);
    return null;
  }

  /** The value of hex digits (at most 8), or -1 if one is not a hex digit. */
  private static long parseHex(String s) {
    long v = 0;
    for (int k = 0; k < s.length(); k++) {
      int d = Character.digit(s.charAt(k), 16);
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }

  private Token scanNumber(int c) {
    Position start = here();
    boolean fraction = false;
    boolean exponent = false;
    if (c == '.') {
      read();
      c = peek();
      if (!isDigit(c)) {
        endToken();
        return Token.DOT;
      }
      fraction = true;
    } else if (c == '0') {
      read();
      c = peek();
      if (c == '.') {
        fraction = true;
      } else if (c == 'x' || c == 'X') {
        read();
        c = peek();
        if (!isXDigit(c)) {
          throw error(start, "invalid hex literal");
        }
        while (isXDigit(c)) {
          read();
          c = peek();
        }
      } else if (c == 'o' || c == 'O') {
        read();
        c = peek();
        if (c < '0' || c > '7') {
          throw error(here(), "invalid octal literal");
        }
        while (c >= '0' && c <= '7') {
          read();
          c = peek();
        }
      } else if (c == 'b' || c == 'B') {
        read();
        c = peek();
        if (c != '0' && c != '1') {
          throw error(here(), "invalid binary literal");
        }
        while (c == '0' || c == '1') {
          read();
          c = peek();
        }
      } else {
        boolean allzeros = true;
        boolean octal = true;
        while (isDigit(c)) {
          if (c != '0') {
            allzeros = false;
          }
          if (c > '7') {
            octal = false;
          }
          read();
          c = peek();
        }
        if (c == '.') {
          fraction = true;
        } else if (c == 'e' || c == 'E') {
          exponent = true;
        } else if (octal && !allzeros) {
          endToken();
          throw error(here(), "obsolete form of octal literal; use 0o" + raw.substring(1));
        }
      }
    } else {
      while (isDigit(c)) {
        read();
        c = peek();
      }
      if (c == '.') {
        fraction = true;
      } else if (c == 'e' || c == 'E') {
        exponent = true;
      }
    }
    if (fraction) {
      read();
      c = peek();
      while (isDigit(c)) {
        read();
        c = peek();
      }
      if (c == 'e' || c == 'E') {
        exponent = true;
      }
    }
    if (exponent) {
      read();
      c = peek();
      if (c == '+' || c == '-') {
        read();
        c = peek();
        if (!isDigit(c)) {
          throw error(here(), "invalid float literal");
        }
      }
      while (isDigit(c)) {
        read();
        c = peek();
      }
    }
    endToken();
    if (fraction || exponent) {
      double d;
      try {
        d = Double.parseDouble(raw);
      } catch (NumberFormatException ex) {
        throw error(here(), "invalid float literal");
      }
      if (Double.isInfinite(d)) {
        throw error(here(), "invalid float literal");
      }
      value = d;
      return Token.FLOAT;
    }
    String s = raw;
    int radix = 10;
    String digits = s;
    if (s.length() > 1 && s.charAt(0) == '0') {
      char p = s.charAt(1);
      if (p == 'x' || p == 'X') {
        radix = 16;
        digits = s.substring(2);
      } else if (p == 'o' || p == 'O') {
        radix = 8;
        digits = s.substring(2);
      } else if (p == 'b' || p == 'B') {
        radix = 2;
        digits = s.substring(2);
      } else {
        // "00" and the like: all zeros is fine; anything else was rejected above or is invalid
        for (int k = 0; k < s.length(); k++) {
          if (s.charAt(k) != '0') {
            throw error(start, "invalid int literal");
          }
        }
      }
    }
    try {
      BigInteger bi = new BigInteger(digits, radix);
      value = bi.bitLength() < 64 ? (Object) bi.longValue() : bi;
    } catch (NumberFormatException ex) {
      throw error(start, "invalid int literal");
    }
    return Token.INT;
  }

  static boolean isIdentStart(int c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c == '_'
        || (c > 127 && Character.isLetter(c));
  }

  static boolean isIdent(int c) {
    return isDigit(c) || isIdentStart(c);
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isXDigit(int c) {
    return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }
}
