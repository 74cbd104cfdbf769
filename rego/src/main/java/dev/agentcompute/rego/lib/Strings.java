package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * String builtins that search and slice: concat, contains, startswith, endswith, indexof,
 * indexof_n, substring, format_int, lower, upper, strings.count, strings.reverse and the
 * any-prefix/suffix matches. Indexes count code points, as OPA counts runes.
 */
final class Strings {
  private Strings() {}

  static void register(Registry r) {
    r.add("concat", 2, Strings::concat);
    r.add("contains", 2, (c, a) -> RegoBoolean.of(Args.string(a, 0).contains(Args.string(a, 1))));
    r.add(
        "startswith", 2, (c, a) -> RegoBoolean.of(Args.string(a, 0).startsWith(Args.string(a, 1))));
    r.add("endswith", 2, (c, a) -> RegoBoolean.of(Args.string(a, 0).endsWith(Args.string(a, 1))));
    r.add("indexof", 2, (c, a) -> RegoNumber.of(indexOf(a)));
    r.add("indexof_n", 2, Strings::indexOfN);
    r.add("substring", 3, Strings::substring);
    r.add("format_int", 2, (c, a) -> formatInt(a));
    r.add("lower", 1, (c, a) -> RegoString.of(Args.string(a, 0).toLowerCase(Locale.ROOT)));
    r.add("upper", 1, (c, a) -> RegoString.of(Args.string(a, 0).toUpperCase(Locale.ROOT)));
    r.add("strings.count", 2, (c, a) -> RegoNumber.of(count(Args.string(a, 0), Args.string(a, 1))));
    r.add("strings.reverse", 1, (c, a) -> RegoString.of(reverse(Args.string(a, 0))));
    r.add("strings.any_prefix_match", 2, (c, a) -> RegoBoolean.of(anyMatch(a, false)));
    r.add("strings.any_suffix_match", 2, (c, a) -> RegoBoolean.of(anyMatch(a, true)));
  }

  private static RegoValue concat(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String sep = Args.string(a, 0);
    List<RegoValue> elems =
        switch (a[1]) {
          case RegoArray x -> x.asList();
          case RegoSet x -> x.asList();
          default -> throw Args.typeError(2, a[1], "set", "array");
        };
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < elems.size(); i++) {
      if (!(elems.get(i) instanceof RegoString s)) {
        throw Args.elementError(2, a[1], elems.get(i), "string");
      }
      if (i > 0) {
        b.append(sep);
      }
      b.append(s.value());
      c.charge(1 + s.value().length() / 64);
    }
    return RegoString.of(b.toString());
  }

  static int[] codePoints(String s) {
    return s.codePoints().toArray();
  }

  private static int indexOf(RegoValue[] a) throws BuiltinError {
    String base = Args.string(a, 0);
    String search = Args.string(a, 1);
    if (search.isEmpty()) {
      throw BuiltinError.of("empty search character");
    }
    int i = base.indexOf(search);
    return i < 0 ? -1 : base.codePointCount(0, i);
  }

  private static RegoValue indexOfN(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String base = Args.string(a, 0);
    String search = Args.string(a, 1);
    if (search.isEmpty()) {
      throw BuiltinError.of("empty search character");
    }
    c.charge(base.length() / 64);
    List<RegoValue> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int i = base.indexOf(search, from);
      if (i < 0) {
        break;
      }
      out.add(RegoNumber.of(base.codePointCount(0, i)));
      from = i + Character.charCount(base.codePointAt(i));
    }
    return RegoArray.of(out);
  }

  private static RegoValue substring(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    int start = Args.intValue(a, 1);
    int length = Args.intValue(a, 2);
    if (start < 0) {
      throw BuiltinError.of("negative offset");
    }
    int[] cps = codePoints(s);
    if (start >= cps.length) {
      return RegoString.EMPTY;
    }
    int end = length < 0 ? cps.length : (int) Math.min(cps.length, (long) start + length);
    return RegoString.of(new String(cps, start, end - start));
  }

  private static RegoValue formatInt(RegoValue[] a) throws BuiltinError {
    RegoNumber n = Args.number(a, 0);
    RegoNumber base = Args.number(a, 1);
    int radix;
    if (base.equals(RegoNumber.of(2))) {
      radix = 2;
    } else if (base.equals(RegoNumber.of(8))) {
      radix = 8;
    } else if (base.equals(RegoNumber.of(10))) {
      radix = 10;
    } else if (base.equals(RegoNumber.of(16))) {
      radix = 16;
    } else {
      throw BuiltinError.type("operand 2 must be one of {2, 8, 10, 16}");
    }
    BigInteger i = n.isInteger() ? n.bigInteger() : BigFloat.of(n).truncate();
    return RegoString.of(i.toString(radix));
  }

  /** Go's strings.Count: non-overlapping occurrences; an empty needle counts code points + 1. */
  static int count(String s, String sub) {
    if (sub.isEmpty()) {
      return s.codePointCount(0, s.length()) + 1;
    }
    int n = 0;
    int from = 0;
    while ((from = s.indexOf(sub, from)) >= 0) {
      n++;
      from += sub.length();
    }
    return n;
  }

  static String reverse(String s) {
    int[] cps = codePoints(s);
    StringBuilder b = new StringBuilder(s.length());
    for (int i = cps.length - 1; i >= 0; i--) {
      b.appendCodePoint(cps[i]);
    }
    return b.toString();
  }

  private static List<String> stringOrStrings(RegoValue[] a, int i) throws BuiltinError {
    if (a[i] instanceof RegoString s) {
      return List.of(s.value());
    }
    if (a[i] instanceof RegoArray || a[i] instanceof RegoSet) {
      return Args.strings(a, i);
    }
    throw Args.typeError(i + 1, a[i], "string", "set", "array");
  }

  private static boolean anyMatch(RegoValue[] a, boolean suffix) throws BuiltinError {
    List<String> strs = stringOrStrings(a, 0);
    List<String> affixes = stringOrStrings(a, 1);
    for (String s : strs) {
      for (String p : affixes) {
        if (suffix ? s.endsWith(p) : s.startsWith(p)) {
          return true;
        }
      }
    }
    return false;
  }
}
