package dev.agentcompute.rego.value;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON text for values: {@link #write} is Go's {@code json.Marshal} output (compact, sorted keys,
 * HTML characters escaped, sets as arrays, non-string keys as their JSON text), which is what OPA's
 * {@code json.marshal} returns; {@link #parse} reads JSON keeping each number's text.
 */
public final class Json {
  private Json() {}

  /** Malformed JSON; the message follows Go's {@code encoding/json} wording. */
  public static final class ParseError extends Exception {
    ParseError(String message) {
      super(message);
    }
  }

  public static String write(RegoValue v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  public static void write(StringBuilder b, RegoValue v) {
    switch (v) {
      case RegoNull n -> b.append("null");
      case RegoBoolean x -> b.append(x.value());
      case RegoNumber x -> b.append(x.text());
      case RegoString s -> quoteJson(b, s.value());
      case RegoArray a -> {
        b.append('[');
        for (int i = 0; i < a.size(); i++) {
          if (i > 0) {
            b.append(',');
          }
          write(b, a.get(i));
        }
        b.append(']');
      }
      case RegoSet s -> {
        b.append('[');
        for (int i = 0; i < s.size(); i++) {
          if (i > 0) {
            b.append(',');
          }
          write(b, s.get(i));
        }
        b.append(']');
      }
      case RegoObject o -> {
        // Go sorts the (string) keys of a map by bytes; non-string keys become JSON text first.
        List<String[]> entries = new ArrayList<>(o.size());
        boolean allStrings = true;
        for (int i = 0; i < o.size(); i++) {
          RegoValue k = o.key(i);
          allStrings &= k instanceof RegoString;
          String key = k instanceof RegoString s ? s.value() : write(k);
          entries.add(new String[] {key, Integer.toString(i)});
        }
        if (!allStrings) {
          entries.sort((x, y) -> Values.compareStrings(x[0], y[0]));
        }
        b.append('{');
        for (int i = 0; i < entries.size(); i++) {
          if (i > 0) {
            b.append(',');
          }
          quoteJson(b, entries.get(i)[0]);
          b.append(':');
          write(b, o.value(Integer.parseInt(entries.get(i)[1])));
        }
        b.append('}');
      }
    }
  }

  /** A JSON string literal with Go's escaping (including {@code <}, {@code >}, {@code &}). */
  public static void quoteJson(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /** A string literal as Rego prints it (Go's {@code strconv.Quote}). */
  public static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2);
    b.append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case 7 -> b.append("\\a");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case 11 -> b.append("\\v");
        default -> {
          if (cp < 0x20 || cp == 0x7f) {
            b.append(String.format("\\x%02x", cp));
          } else if (isPrintable(cp)) {
            b.appendCodePoint(cp);
          } else if (cp < 0x10000) {
            b.append(String.format("\\u%04x", cp));
          } else {
            b.append(String.format("\\U%08x", cp));
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static boolean isPrintable(int cp) {
    int t = Character.getType(cp);
    return t != Character.CONTROL
        && t != Character.FORMAT
        && t != Character.SURROGATE
        && t != Character.PRIVATE_USE
        && t != Character.UNASSIGNED
        && t != Character.LINE_SEPARATOR
        && t != Character.PARAGRAPH_SEPARATOR
        && (t != Character.SPACE_SEPARATOR || cp == ' ');
  }

  /** Parses one JSON document. */
  public static RegoValue parse(String text) throws ParseError {
    return new JsonReader(text, Values.MAX_DEPTH).document();
  }

  /** Parses one JSON document, rejecting nesting deeper than {@code maxDepth}. */
  public static RegoValue parse(String text, int maxDepth) throws ParseError {
    return new JsonReader(text, maxDepth).document();
  }

  static ParseError error(String message) {
    return new ParseError(message);
  }
}
