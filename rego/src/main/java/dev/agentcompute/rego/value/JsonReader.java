package dev.agentcompute.rego.value;

import java.util.ArrayList;
import java.util.List;

/** A strict JSON reader (RFC 8259) with a nesting limit; numbers keep their source text. */
final class JsonReader {
  private final String s;
  private final int maxDepth;
  private int pos;

  JsonReader(String s, int maxDepth) {
    this.s = s;
    this.maxDepth = maxDepth;
  }

  RegoValue document() throws Json.ParseError {
    skipSpace();
    RegoValue v = value(0);
    skipSpace();
    if (pos < s.length()) {
      throw Json.error("invalid character " + describe(s.charAt(pos)) + " after top-level value");
    }
    return v;
  }

  private RegoValue value(int depth) throws Json.ParseError {
    if (pos >= s.length()) {
      throw Json.error("unexpected end of JSON input");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"':
        return RegoString.of(string());
      case 't':
        literal("true");
        return RegoBoolean.TRUE;
      case 'f':
        literal("false");
        return RegoBoolean.FALSE;
      case 'n':
        literal("null");
        return RegoNull.NULL;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw Json.error("invalid character " + describe(c) + " looking for beginning of value");
    }
  }

  private void checkDepth(int depth) throws Json.ParseError {
    if (depth > maxDepth) {
      throw Json.error("exceeded max depth");
    }
  }

  private RegoValue object(int depth) throws Json.ParseError {
    checkDepth(depth);
    pos++;
    RegoObject.Builder b = new RegoObject.Builder();
    skipSpace();
    if (peek() == '}') {
      pos++;
      return b.build();
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw unexpected("looking for beginning of object key string");
      }
      String key = string();
      skipSpace();
      if (peek() != ':') {
        throw unexpected("after object key");
      }
      pos++;
      skipSpace();
      b.put(RegoString.of(key), value(depth));
      skipSpace();
      char c = peek();
      if (c == ',') {
        pos++;
      } else if (c == '}') {
        pos++;
        return b.build();
      } else {
        throw unexpected("after object key:value pair");
      }
    }
  }

  private RegoValue array(int depth) throws Json.ParseError {
    checkDepth(depth);
    pos++;
    List<RegoValue> items = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      return RegoArray.EMPTY;
    }
    while (true) {
      skipSpace();
      items.add(value(depth));
      skipSpace();
      char c = peek();
      if (c == ',') {
        pos++;
      } else if (c == ']') {
        pos++;
        return RegoArray.of(items);
      } else {
        throw unexpected("after array element");
      }
    }
  }

  private Json.ParseError unexpected(String context) {
    if (pos >= s.length()) {
      return Json.error("unexpected end of JSON input");
    }
    return Json.error("invalid character " + describe(s.charAt(pos)) + " " + context);
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void literal(String word) throws Json.ParseError {
    for (int i = 0; i < word.length(); i++) {
      if (pos >= s.length()) {
        throw Json.error("unexpected end of JSON input");
      }
      if (s.charAt(pos) != word.charAt(i)) {
        throw Json.error(
            "invalid character "
                + describe(s.charAt(pos))
                + " in literal "
                + word
                + " (expecting '"
                + word.charAt(i)
                + "')");
      }
      pos++;
    }
  }

  private RegoValue number() throws Json.ParseError {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (peek() >= '1' && peek() <= '9') {
      digits();
    } else {
      throw unexpected("in numeric literal");
    }
    if (peek() == '.') {
      pos++;
      if (!(peek() >= '0' && peek() <= '9')) {
        throw unexpected("after decimal point in numeric literal");
      }
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!(peek() >= '0' && peek() <= '9')) {
        throw unexpected("in exponent of numeric literal");
      }
      digits();
    }
    try {
      return RegoNumber.parse(s.substring(start, pos));
    } catch (NumberFormatException e) {
      throw Json.error("number out of range: " + s.substring(start, pos));
    }
  }

  private void digits() {
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
      pos++;
    }
  }

  private String string() throws Json.ParseError {
    pos++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw Json.error("unexpected end of JSON input");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw Json.error("invalid character " + describe(c) + " in string literal");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= s.length()) {
        throw Json.error("unexpected end of JSON input");
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > s.length()) {
            throw Json.error("unexpected end of JSON input");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          } catch (NumberFormatException x) {
            throw Json.error("invalid character in \\u hexadecimal character escape");
          }
          pos += 4;
        }
        default -> throw Json.error("invalid character " + describe(e) + " in string escape code");
      }
    }
  }

  private void skipSpace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private static String describe(char c) {
    if (c == '\'') {
      return "'\\''";
    }
    if (c == '"') {
      return "'\"'";
    }
    if (c < 0x20) {
      return String.format("'\\x%02x'", (int) c);
    }
    return "'" + c + "'";
  }
}
