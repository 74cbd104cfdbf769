package dev.agentcompute.server.admin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Escaping for the console's HTML: every value that reaches a page goes through one of these. */
final class Html {
  private Html() {}

  /** Text or a quoted attribute value: the five characters HTML gives meaning to are escaped. */
  static String text(Object value) {
    String s = value == null ? "" : value.toString();
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A value inside a URL path or query, then escaped for the attribute it sits in. */
  static String url(String value) {
    return text(URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8));
  }
}
