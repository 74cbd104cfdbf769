package dev.agentcompute.starlark.conformance;

/** Go's {@code strconv.Unquote} for the quoted regexps of {@code ###} comments. */
final class GoQuote {
  private GoQuote() {}

  /** The unquoted text; IllegalArgumentException when {@code s} is not a Go string literal. */
  static String unquote(String s) {
    s = s.strip();
    if (s.length() >= 2 && s.startsWith("`") && s.endsWith("`")) {
      return s.substring(1, s.length() - 1);
    }
    if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
      throw new IllegalArgumentException("not a quoted string");
    }
    String body = s.substring(1, s.length() - 1);
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < body.length()) {
      char c = body.charAt(i);
      if (c == '"') {
        throw new IllegalArgumentException("unescaped quote");
      }
      if (c != '\\') {
        out.append(c);
        i++;
        continue;
      }
      if (++i >= body.length()) {
        throw new IllegalArgumentException("trailing backslash");
      }
      c = body.charAt(i);
      int simple = "abfnrtv\\\"".indexOf(c);
      if (simple >= 0) {
        out.append("\u0007\b\f\n\r\t\u000b\\\"".charAt(simple));
        i++;
      } else if (c == 'x' || c == 'u' || c == 'U') {
        int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        out.appendCodePoint(Integer.parseInt(body.substring(i + 1, i + 1 + n), 16));
        i += 1 + n;
      } else if (c >= '0' && c <= '7') {
        out.append((char) Integer.parseInt(body.substring(i, i + 3), 8));
        i += 3;
      } else {
        throw new IllegalArgumentException("bad escape \\" + c);
      }
    }
    return out.toString();
  }
}
