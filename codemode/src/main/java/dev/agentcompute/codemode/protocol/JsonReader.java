package dev.agentcompute.codemode.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict JSON for the worker protocol: valid UTF-8, one value, no trailing data, bounded nesting. A
 * number with {@code .}, {@code e} or {@code E} is a finite {@link Double}; any other number is a
 * {@link Long} (out of range is an error). Objects decode to insertion-ordered maps, last key wins.
 */
public final class JsonReader {

  private final String s;
  private final int maxNesting;
  private int pos;

  private JsonReader(String s, int maxNesting) {
    this.s = s;
    this.maxNesting = maxNesting;
  }

  public static Object parse(byte[] utf8, int maxNesting) throws ProtocolException {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(utf8))
              .toString();
    } catch (CharacterCodingException e) {
      throw new ProtocolException("invalid UTF-8");
    }
    return parse(text, maxNesting);
  }

  public static Object parse(String text, int maxNesting) throws ProtocolException {
    JsonReader r = new JsonReader(text, maxNesting);
    r.ws();
    Object v = r.value(0);
    r.ws();
    if (r.pos != text.length()) {
      throw new ProtocolException("trailing data after JSON value");
    }
    return v;
  }

  private Object value(int depth) throws ProtocolException {
    if (depth > maxNesting) {
      throw new ProtocolException("JSON nested too deeply");
    }
    if (pos >= s.length()) {
      throw new ProtocolException("unexpected end of JSON");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{' -> {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (peek('}')) {
          pos++;
          return m;
        }
        while (true) {
          ws();
          if (!peek('"')) {
            throw new ProtocolException("expected object key");
          }
          String k = string();
          ws();
          expect(':');
          ws();
          m.put(k, value(depth + 1));
          ws();
          if (peek(',')) {
            pos++;
            continue;
          }
          expect('}');
          return m;
        }
      }
      case '[' -> {
        pos++;
        List<Object> l = new ArrayList<>();
        ws();
        if (peek(']')) {
          pos++;
          return l;
        }
        while (true) {
          ws();
          l.add(value(depth + 1));
          ws();
          if (peek(',')) {
            pos++;
            continue;
          }
          expect(']');
          return l;
        }
      }
      case '"' -> {
        return string();
      }
      case 't' -> {
        literal("true");
        return Boolean.TRUE;
      }
      case 'f' -> {
        literal("false");
        return Boolean.FALSE;
      }
      case 'n' -> {
        literal("null");
        return null;
      }
      default -> {
        return number();
      }
    }
  }

  private Object number() throws ProtocolException {
    int start = pos;
    if (peek('-')) {
      pos++;
    }
    if (pos >= s.length() || !digit(s.charAt(pos))) {
      throw new ProtocolException("invalid JSON value");
    }
    if (s.charAt(pos) == '0') {
      pos++;
    } else {
      while (pos < s.length() && digit(s.charAt(pos))) {
        pos++;
      }
    }
    boolean isFloat = false;
    if (peek('.')) {
      isFloat = true;
      pos++;
      int d = pos;
      while (pos < s.length() && digit(s.charAt(pos))) {
        pos++;
      }
      if (d == pos) {
        throw new ProtocolException("invalid number");
      }
    }
    if (peek('e') || peek('E')) {
      isFloat = true;
      pos++;
      if (peek('+') || peek('-')) {
        pos++;
      }
      int d = pos;
      while (pos < s.length() && digit(s.charAt(pos))) {
        pos++;
      }
      if (d == pos) {
        throw new ProtocolException("invalid number");
      }
    }
    String tok = s.substring(start, pos);
    if (isFloat) {
      double v = Double.parseDouble(tok);
      if (Double.isInfinite(v) || Double.isNaN(v)) {
        throw new ProtocolException("float out of range");
      }
      return v;
    }
    try {
      return Long.parseLong(tok);
    } catch (NumberFormatException e) {
      throw new ProtocolException("integer out of int64 range");
    }
  }

  private String string() throws ProtocolException {
    pos++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw new ProtocolException("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw new ProtocolException("control character in string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= s.length()) {
        throw new ProtocolException("unterminated escape");
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case '/' -> b.append('/');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > s.length()) {
            throw new ProtocolException("bad unicode escape");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          } catch (NumberFormatException x) {
            throw new ProtocolException("bad unicode escape");
          }
          pos += 4;
        }
        default -> throw new ProtocolException("bad escape");
      }
    }
  }

  private void literal(String word) throws ProtocolException {
    if (!s.startsWith(word, pos)) {
      throw new ProtocolException("invalid JSON literal");
    }
    pos += word.length();
  }

  private boolean peek(char c) {
    return pos < s.length() && s.charAt(pos) == c;
  }

  private void expect(char c) throws ProtocolException {
    if (!peek(c)) {
      throw new ProtocolException("expected '" + c + "'");
    }
    pos++;
  }

  private void ws() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }
}
