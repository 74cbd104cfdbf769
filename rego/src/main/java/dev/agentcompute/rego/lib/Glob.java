package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code glob.match(pattern, delimiters, s)} with the gobwas/glob syntax OPA uses: {@code *} (any
 * run of non-delimiters), {@code **} (anything), {@code ?}, {@code [abc]}, {@code [!a-z]}, {@code
 * {a,b}} and {@code \} escapes. An empty delimiter array means {@code ["."]}; null means none.
 * Patterns are compiled to regular expressions once per policy.
 */
final class Glob {
  private Glob() {}

  static void register(Registry r) {
    r.add("glob.match", 3, Glob::match);
    r.add("glob.quote_meta", 1, (c, a) -> RegoString.of(quoteMeta(Args.string(a, 0))));
  }

  private static RegoValue match(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String pattern = Args.string(a, 0);
    List<Integer> delims = new ArrayList<>();
    if (a[1] instanceof RegoArray arr) {
      for (RegoValue v : arr.asList()) {
        if (!(v instanceof RegoString s) || s.value().codePointCount(0, s.value().length()) != 1) {
          throw Args.elementError(2, arr, v, v instanceof RegoString ? "rune" : "string");
        }
        delims.add(s.value().codePointAt(0));
      }
      if (delims.isEmpty()) {
        delims.add((int) '.');
      }
    } else if (!(a[1] instanceof RegoNull)) {
      throw Args.typeError(2, a[1], "array", "null");
    }
    String s = Args.string(a, 2);
    StringBuilder key = new StringBuilder("glob:").append(pattern).append('-');
    delims.forEach(key::appendCodePoint);
    Object hit = c.cached(key.toString());
    Pattern p;
    if (hit instanceof Pattern cached) {
      p = cached;
    } else {
      c.charge(pattern.length());
      p = compile(pattern, delims);
      c.cache(key.toString(), p);
    }
    return RegoBoolean.of(p.matcher(new ChargedChars(c, s)).matches());
  }

  static Pattern compile(String glob, List<Integer> delims) throws BuiltinError {
    StringBuilder notDelim = new StringBuilder();
    for (int d : delims) {
      notDelim.append(Pattern.quote(new String(Character.toChars(d))));
    }
    String single = delims.isEmpty() ? "." : "[^" + escapeClass(delims) + "]";
    int[] pos = {0};
    String re = translate(glob, pos, single, 0);
    if (pos[0] < glob.length()) {
      throw BuiltinError.of("unexpected " + glob.charAt(pos[0]) + " in glob pattern");
    }
    try {
      return Pattern.compile(re, Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      throw BuiltinError.of("invalid glob pattern: " + e.getDescription());
    }
  }

  private static String escapeClass(List<Integer> delims) {
    StringBuilder b = new StringBuilder();
    for (int d : delims) {
      if ("\\^-[]&".indexOf(d) >= 0) {
        b.append('\\');
      }
      b.appendCodePoint(d);
    }
    return b.toString();
  }

  /** Translates from {@code pos[0]}; inside {@code {...}} ({@code depth > 0}) stops at , or }. */
  private static String translate(String g, int[] pos, String single, int depth)
      throws BuiltinError {
    StringBuilder out = new StringBuilder();
    while (pos[0] < g.length()) {
      char ch = g.charAt(pos[0]);
      if (depth > 0 && (ch == ',' || ch == '}')) {
        return out.toString();
      }
      pos[0]++;
      switch (ch) {
        case '*' -> {
          if (pos[0] < g.length() && g.charAt(pos[0]) == '*') {
            pos[0]++;
            out.append(".*");
          } else {
            out.append(single).append('*');
          }
        }
        case '?' -> out.append(single);
        case '\\' -> {
          if (pos[0] >= g.length()) {
            throw BuiltinError.of("unexpected end of glob pattern after escape");
          }
          int cp = g.codePointAt(pos[0]);
          pos[0] += Character.charCount(cp);
          out.append(Pattern.quote(new String(Character.toChars(cp))));
        }
        case '[' -> out.append(charClass(g, pos));
        case '{' -> {
          List<String> alts = new ArrayList<>();
          while (true) {
            alts.add(translate(g, pos, single, depth + 1));
            if (pos[0] >= g.length()) {
              throw BuiltinError.of("unexpected end of glob pattern: unclosed {");
            }
            char sep = g.charAt(pos[0]++);
            if (sep == '}') {
              break;
            }
          }
          out.append("(?:").append(String.join("|", alts)).append(')');
        }
        default -> {
          int cp = g.codePointAt(pos[0] - 1);
          pos[0] += Character.charCount(cp) - 1;
          out.append(Pattern.quote(new String(Character.toChars(cp))));
        }
      }
    }
    if (depth > 0) {
      throw BuiltinError.of("unexpected end of glob pattern: unclosed {");
    }
    return out.toString();
  }

  private static String charClass(String g, int[] pos) throws BuiltinError {
    StringBuilder out = new StringBuilder("[");
    if (pos[0] < g.length() && g.charAt(pos[0]) == '!') {
      out.append('^');
      pos[0]++;
    }
    boolean any = false;
    while (pos[0] < g.length()) {
      char ch = g.charAt(pos[0]++);
      if (ch == ']' && any) {
        return out.append(']').toString();
      }
      any = true;
      if (ch == '\\' && pos[0] < g.length()) {
        ch = g.charAt(pos[0]++);
      }
      if ("\\^[]&".indexOf(ch) >= 0) {
        out.append('\\');
      }
      out.append(ch);
    }
    throw BuiltinError.of("unexpected end of glob pattern: unclosed [");
  }

  private static String quoteMeta(String s) {
    StringBuilder b = new StringBuilder();
    for (char ch : s.toCharArray()) {
      if ("*?\\[]{}".indexOf(ch) >= 0) {
        b.append('\\');
      }
      b.append(ch);
    }
    return b.toString();
  }
}
