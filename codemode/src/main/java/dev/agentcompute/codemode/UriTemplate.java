package dev.agentcompute.codemode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RFC 6570 level-1 templates ({@code scheme://a/{x}/b/{y}}): a variable matches one non-empty path
 * segment, percent-decoded.
 */
final class UriTemplate {

  private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z0-9_]+)}");

  private final Pattern pattern;
  private final List<String> names;

  private UriTemplate(Pattern pattern, List<String> names) {
    this.pattern = pattern;
    this.names = names;
  }

  /** Parses {@code template}; a malformed one is an IllegalArgumentException naming the problem. */
  static UriTemplate parse(String template) {
    StringBuilder regex = new StringBuilder();
    List<String> names = new ArrayList<>();
    Matcher m = VARIABLE.matcher(template);
    int last = 0;
    while (m.find()) {
      regex.append(Pattern.quote(template.substring(last, m.start())));
      regex.append("([^/?#]+)");
      if (names.contains(m.group(1))) {
        throw new IllegalArgumentException("variable {" + m.group(1) + "} appears twice");
      }
      names.add(m.group(1));
      last = m.end();
    }
    String rest = template.substring(last);
    regex.append(Pattern.quote(rest));
    if (names.isEmpty()) {
      throw new IllegalArgumentException("a template has at least one {variable}");
    }
    if (VARIABLE.matcher(template).replaceAll("").matches(".*[{}].*")) {
      throw new IllegalArgumentException("a brace that is not part of a {variable}");
    }
    return new UriTemplate(Pattern.compile(regex.toString()), List.copyOf(names));
  }

  /** The variables of {@code uri}, or null when it does not match. */
  Map<String, String> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String value = decode(m.group(i + 1));
      if (value == null) {
        return null;
      }
      out.put(names.get(i), value);
    }
    return out;
  }

  private static String decode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          return null;
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        int cp = s.codePointAt(i);
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        i += Character.charCount(cp) - 1;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
