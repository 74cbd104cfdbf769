package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoValue;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code regex.match} and {@code regex.is_valid}. Patterns use Go's RE2 syntax; they are translated
 * to java.util.regex: {@code $} means end of text (as in RE2 without {@code (?m)}), {@code
 * [[:alpha:]]} classes become {@code \p{Alpha}}, {@code (?P<n>...)} becomes {@code (?<n>...)}, and
 * {@code [} or {@code &&} inside a class are literal. Constructs RE2 does not have (backreferences,
 * lookaround, possessive quantifiers) are rejected as RE2 rejects them.
 */
final class Regex {
  private Regex() {}

  static void register(Registry r) {
    r.add(
        "regex.match",
        2,
        (c, a) ->
            RegoBoolean.of(
                compile(c, Args.string(a, 0))
                    .matcher(new ChargedChars(c, Args.string(a, 1)))
                    .find()));
    r.add("regex.is_valid", 1, (c, a) -> RegoBoolean.of(valid(c, a)));
  }

  private static boolean valid(BuiltinContext c, RegoValue[] a) {
    if (!(a[0] instanceof dev.agentcompute.rego.value.RegoString s)) {
      return false;
    }
    try {
      compile(c, s.value());
      return true;
    } catch (BuiltinError e) {
      return false;
    }
  }

  static Pattern compile(BuiltinContext c, String re2) throws BuiltinError {
    String key = "regex:" + re2;
    Object hit = c.cached(key);
    if (hit instanceof Pattern p) {
      return p;
    }
    c.charge(re2.length());
    Pattern p;
    try {
      p = Pattern.compile(translate(re2), Pattern.UNIX_LINES);
    } catch (PatternSyntaxException e) {
      throw BuiltinError.of("error parsing regexp: " + e.getDescription() + ": `" + re2 + "`");
    }
    c.cache(key, p);
    return p;
  }

  /** RE2 syntax to java.util.regex syntax (see the class comment). */
  static String translate(String re) throws BuiltinError {
    StringBuilder out = new StringBuilder(re.length() + 8);
    boolean multiline = re.contains("(?m") || re.matches(".*\\(\\?[a-zA-Z]*m[a-zA-Z]*[:)].*");
    int i = 0;
    int n = re.length();
    while (i < n) {
      char ch = re.charAt(i);
      if (ch == '\\') {
        if (i + 1 >= n) {
          throw bad("trailing backslash at end of expression", re);
        }
        char e = re.charAt(i + 1);
        if (e >= '1' && e <= '9') {
          throw bad("invalid escape sequence: `\\" + e + "`", re);
        }
        out.append(ch).append(e);
        i += 2;
        continue;
      }
      if (ch == '[') {
        i = charClass(re, i, out);
        continue;
      }
      if (ch == '(' && re.startsWith("(?", i)) {
        if (re.startsWith("(?P<", i)) {
          out.append("(?<");
          i += 4;
          continue;
        }
        if (re.startsWith("(?=", i) || re.startsWith("(?!", i) || re.startsWith("(?<", i)) {
          throw bad(
              "invalid or unsupported Perl syntax: `" + re.substring(i, Math.min(n, i + 3)) + "`",
              re);
        }
      }
      if ((ch == '+' || ch == '*' || ch == '?' || ch == '}')
          && i + 1 < n
          && re.charAt(i + 1) == '+') {
        throw bad("invalid nested repetition operator: `" + ch + "+`", re);
      }
      if (ch == '$' && !multiline) {
        out.append("\\z");
        i++;
        continue;
      }
      out.append(ch);
      i++;
    }
    return out.toString();
  }

  private static BuiltinError bad(String why, String re) {
    return BuiltinError.of("error parsing regexp: " + why);
  }

  /** Copies the class starting at {@code re[i] == '['}; returns the index after its {@code ]}. */
  private static int charClass(String re, int i, StringBuilder out) throws BuiltinError {
    int n = re.length();
    out.append('[');
    i++;
    if (i < n && re.charAt(i) == '^') {
      out.append('^');
      i++;
    }
    boolean first = true;
    while (i < n) {
      char ch = re.charAt(i);
      if (ch == ']' && !first) {
        out.append(']');
        return i + 1;
      }
      first = false;
      if (ch == '[' && re.startsWith("[:", i)) {
        int end = re.indexOf(":]", i + 2);
        if (end > 0) {
          String name = re.substring(i + 2, end);
          boolean negate = name.startsWith("^");
          String cls = posix(negate ? name.substring(1) : name);
          if (cls == null) {
            throw bad("invalid character class range: `[:" + name + ":]`", re);
          }
          out.append(negate ? "\\P{" : "\\p{").append(cls).append('}');
          i = end + 2;
          continue;
        }
      }
      if (ch == '\\' && i + 1 < n) {
        out.append(ch).append(re.charAt(i + 1));
        i += 2;
        continue;
      }
      if (ch == '[' || ch == '&' || (ch == ']')) {
        out.append('\\').append(ch);
      } else {
        out.append(ch);
      }
      i++;
    }
    throw bad(
        "missing closing ]: `" + re.substring(re.lastIndexOf('[', Math.max(0, n - 1))) + "`", re);
  }

  private static String posix(String name) {
    return switch (name) {
      case "alnum" -> "Alnum";
      case "alpha" -> "Alpha";
      case "ascii" -> "ASCII";
      case "blank" -> "Blank";
      case "cntrl" -> "Cntrl";
      case "digit" -> "Digit";
      case "graph" -> "Graph";
      case "lower" -> "Lower";
      case "print" -> "Print";
      case "punct" -> "Punct";
      case "space" -> "Space";
      case "upper" -> "Upper";
      case "word" -> "Alnum}_\\p{Alnum";
      case "xdigit" -> "XDigit";
      default -> null;
    };
  }
}
