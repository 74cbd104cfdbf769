package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/** String builtins that rewrite: split, replace, strings.replace_n and the trim family. */
final class StringsMore {
  private StringsMore() {}

  static void register(Registry r) {
    r.add("split", 2, StringsMore::split);
    r.add("replace", 3, StringsMore::replace);
    r.add("strings.replace_n", 2, StringsMore::replaceN);
    r.add("trim", 2, (c, a) -> str(trim(Args.string(a, 0), Args.string(a, 1), true, true)));
    r.add("trim_left", 2, (c, a) -> str(trim(Args.string(a, 0), Args.string(a, 1), true, false)));
    r.add("trim_right", 2, (c, a) -> str(trim(Args.string(a, 0), Args.string(a, 1), false, true)));
    r.add("trim_prefix", 2, (c, a) -> str(trimPrefix(Args.string(a, 0), Args.string(a, 1))));
    r.add("trim_suffix", 2, (c, a) -> str(trimSuffix(Args.string(a, 0), Args.string(a, 1))));
    r.add("trim_space", 1, (c, a) -> str(trimSpace(Args.string(a, 0))));
  }

  private static RegoString str(String s) {
    return RegoString.of(s);
  }

  /** Go's strings.Split: an empty separator splits into code points. */
  private static RegoValue split(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    String sep = Args.string(a, 1);
    c.charge(s.length() / 64);
    List<RegoValue> out = new ArrayList<>();
    if (sep.isEmpty()) {
      s.codePoints().forEach(cp -> out.add(RegoString.of(new String(Character.toChars(cp)))));
      return RegoArray.of(out);
    }
    int from = 0;
    while (true) {
      int i = s.indexOf(sep, from);
      if (i < 0) {
        out.add(RegoString.of(s.substring(from)));
        return RegoArray.of(out);
      }
      out.add(RegoString.of(s.substring(from, i)));
      from = i + sep.length();
    }
  }

  private static RegoValue replace(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    String old = Args.string(a, 1);
    String neu = Args.string(a, 2);
    c.charge(s.length() / 64);
    if (old.isEmpty()) {
      // Go's Replacer inserts the replacement at every code point boundary.
      StringBuilder b = new StringBuilder(neu);
      s.codePoints().forEach(cp -> b.appendCodePoint(cp).append(neu));
      return RegoString.of(b.toString());
    }
    return RegoString.of(s.replace(old, neu));
  }

  /**
   * Replaces several patterns in one left-to-right pass (Go's strings.NewReplacer): at each
   * position the first pattern, in key order, that matches wins.
   */
  private static RegoValue replaceN(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    RegoObject patterns = Args.object(a, 0);
    List<String> olds = new ArrayList<>();
    List<String> news = new ArrayList<>();
    for (int i = 0; i < patterns.size(); i++) {
      if (!(patterns.key(i) instanceof RegoString k)) {
        throw BuiltinError.type("operand 1 non-string key found in pattern object");
      }
      if (!(patterns.value(i) instanceof RegoString v)) {
        throw BuiltinError.type("operand 1 non-string value found in pattern object");
      }
      olds.add(k.value());
      news.add(v.value());
    }
    String s = Args.string(a, 1);
    c.charge((long) s.length() * Math.max(1, olds.size()) / 64);
    StringBuilder b = new StringBuilder();
    int i = 0;
    outer:
    while (i < s.length()) {
      for (int p = 0; p < olds.size(); p++) {
        String o = olds.get(p);
        if (!o.isEmpty() && s.startsWith(o, i)) {
          b.append(news.get(p));
          i += o.length();
          continue outer;
        }
      }
      b.append(s.charAt(i++));
    }
    return RegoString.of(b.toString());
  }

  private static String trim(String s, String cutset, boolean left, boolean right) {
    int[] cps = Strings.codePoints(s);
    int start = 0;
    int end = cps.length;
    if (left) {
      while (start < end && cutset.indexOf(new String(Character.toChars(cps[start]))) >= 0) {
        start++;
      }
    }
    if (right) {
      while (end > start && cutset.indexOf(new String(Character.toChars(cps[end - 1]))) >= 0) {
        end--;
      }
    }
    return new String(cps, start, end - start);
  }

  private static String trimPrefix(String s, String p) {
    return s.startsWith(p) ? s.substring(p.length()) : s;
  }

  private static String trimSuffix(String s, String p) {
    return s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
  }

  /** Go's unicode.IsSpace. */
  static boolean isSpace(int cp) {
    return switch (cp) {
      case '\t', '\n', 0x0b, '\f', '\r', ' ', 0x85, 0xa0 -> true;
      default -> cp > 0xff && Character.isSpaceChar(cp);
    };
  }

  private static String trimSpace(String s) {
    int[] cps = Strings.codePoints(s);
    int start = 0;
    int end = cps.length;
    while (start < end && isSpace(cps[start])) {
      start++;
    }
    while (end > start && isSpace(cps[end - 1])) {
      end--;
    }
    return new String(cps, start, end - start);
  }
}
