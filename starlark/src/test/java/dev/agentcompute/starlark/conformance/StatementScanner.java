package dev.agentcompute.starlark.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * A light-weight scan of a chunk into logical lines of tokens, enough to find its top-level
 * statements and the names they bind and use. It is not the interpreter's scanner on purpose: it
 * must also cope with chunks that are deliberately malformed (a chunk it cannot scan is classified
 * by a textual search instead), and the classification must not depend on the code under test.
 */
final class StatementScanner {
  /** A logical line: its tokens and whether it starts at column 0. */
  record Line(boolean topLevel, List<Tok> tokens) {}

  /** The chunk cannot be scanned (an unterminated string or bracket). */
  static final class ScanError extends Exception {
    ScanError(String message) {
      super(message);
    }
  }

  private static final String[] OPS = {
    "**=", "//=", "<<=", ">>=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "->", ":="
  };

  private final String src;
  private int i;
  private int line = 1;
  private int lineStart;

  private StatementScanner(String src) {
    this.src = src;
  }

  static List<Line> scan(String src) throws ScanError {
    return new StatementScanner(src).lines();
  }

  private List<Line> lines() throws ScanError {
    List<Line> out = new ArrayList<>();
    List<Tok> cur = new ArrayList<>();
    boolean topLevel = false;
    int brackets = 0;
    while (i < src.length()) {
      char c = src.charAt(i);
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        i++;
      } else if (c == '#') {
        while (i < src.length() && src.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '\\' && i + 1 < src.length() && src.charAt(i + 1) == '\n') {
        i += 2;
        newLine();
      } else if (c == '\n') {
        i++;
        newLine();
        if (brackets == 0 && !cur.isEmpty()) {
          out.add(new Line(topLevel, List.copyOf(cur)));
          cur.clear();
        }
      } else {
        int col = i - lineStart;
        Tok t = token();
        if (cur.isEmpty()) {
          topLevel = col == 0;
        }
        if (t.isOpen()) {
          brackets++;
        } else if (t.isClose() && brackets > 0) {
          brackets--;
        }
        cur.add(t);
      }
    }
    if (brackets > 0) {
      throw new ScanError("end of file in a bracketed statement");
    }
    if (!cur.isEmpty()) {
      out.add(new Line(topLevel, List.copyOf(cur)));
    }
    return out;
  }

  private void newLine() {
    line++;
    lineStart = i;
  }

  private Tok token() throws ScanError {
    int start = i;
    int startLine = line;
    char c = src.charAt(i);
    if (Character.isLetter(c) || c == '_') {
      while (i < src.length()
          && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '_')) {
        i++;
      }
      String word = src.substring(start, i);
      if (i < src.length()
          && (src.charAt(i) == '"' || src.charAt(i) == '\'')
          && word.toLowerCase().matches("r|b|rb|br")) {
        return string(start);
      }
      return new Tok(Tok.Kind.NAME, word, startLine, startLine);
    }
    if (c == '"' || c == '\'') {
      return string(start);
    }
    if (Character.isDigit(c)
        || (c == '.' && i + 1 < src.length() && Character.isDigit(src.charAt(i + 1)))) {
      boolean hex = src.startsWith("0x", i) || src.startsWith("0X", i);
      while (i < src.length()) {
        char d = src.charAt(i);
        char prev = src.charAt(i - 1 < start ? start : i - 1);
        if (Character.isLetterOrDigit(d) || d == '_' || d == '.') {
          i++;
        } else if ((d == '+' || d == '-') && !hex && i > start && (prev == 'e' || prev == 'E')) {
          i++;
        } else {
          break;
        }
      }
      return new Tok(Tok.Kind.NUMBER, src.substring(start, i), startLine, startLine);
    }
    for (String op : OPS) {
      if (src.startsWith(op, i)) {
        i += op.length();
        return new Tok(Tok.Kind.OP, op, startLine, startLine);
      }
    }
    i++;
    return new Tok(Tok.Kind.OP, String.valueOf(c), startLine, startLine);
  }

  /** A string literal from {@code start} (its prefix, if any); {@code i} is at the quote. */
  private Tok string(int start) throws ScanError {
    int startLine = line;
    char q = src.charAt(i);
    boolean triple = src.startsWith(String.valueOf(q).repeat(3), i);
    i += triple ? 3 : 1;
    while (true) {
      if (i >= src.length()) {
        throw new ScanError("unterminated string literal at line " + startLine);
      }
      char c = src.charAt(i);
      if (c == '\\' && i + 1 < src.length()) {
        if (src.charAt(i + 1) == '\n') {
          i += 2;
          newLine();
        } else {
          i += 2;
        }
      } else if (c == '\n') {
        if (!triple) {
          throw new ScanError("unterminated string literal at line " + startLine);
        }
        i++;
        newLine();
      } else if (c == q && (!triple || src.startsWith(String.valueOf(q).repeat(3), i))) {
        i += triple ? 3 : 1;
        return new Tok(Tok.Kind.STRING, src.substring(start, i), startLine, line);
      } else {
        i++;
      }
    }
  }
}
