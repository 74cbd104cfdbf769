package dev.agentcompute.starlark.eval;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The 35 methods of string values (docs/reference/starlark.md#builtins), on UTF-8 bytes as in
 * starlark-go.
 */
final class StringMethods {
  private static final List<String> NAMES =
      List.of(
          "capitalize",
          "codepoint_ords",
          "codepoints",
          "count",
          "elem_ords",
          "elems",
          "endswith",
          "find",
          "format",
          "index",
          "isalnum",
          "isalpha",
          "isdigit",
          "islower",
          "isspace",
          "istitle",
          "isupper",
          "join",
          "lower",
          "lstrip",
          "partition",
          "removeprefix",
          "removesuffix",
          "replace",
          "rfind",
          "rindex",
          "rpartition",
          "rsplit",
          "rstrip",
          "split",
          "splitlines",
          "startswith",
          "strip",
          "title",
          "upper");

  private StringMethods() {}

  static Value attr(StarlarkString s, String name) {
    Builtin.Impl impl = impl(name);
    return impl == null ? null : Builtin.bound(name, impl, s);
  }

  static List<String> names() {
    return NAMES;
  }

  /**
   * The implementation of method {@code name}, or null. A switch rather than a table built up
   * front: each lambda is linked only when its method is first used, which keeps start-up cheap.
   */
  private static Builtin.Impl impl(String name) {
    return switch (name) {
      case "capitalize" ->
          (t, fn, a, kw) -> {
            Args.positional("capitalize", a, kw, 0, 0);
            return mapRunes(t, recv(fn), true);
          };
      case "codepoint_ords" ->
          (t, fn, a, kw) -> iterable(fn, a, kw, StringIterable.Kind.CODEPOINT_ORDS);
      case "codepoints" -> (t, fn, a, kw) -> iterable(fn, a, kw, StringIterable.Kind.CODEPOINTS);
      case "elem_ords" -> (t, fn, a, kw) -> iterable(fn, a, kw, StringIterable.Kind.ELEM_ORDS);
      case "elems" -> (t, fn, a, kw) -> iterable(fn, a, kw, StringIterable.Kind.ELEMS);
      case "count" -> StringMethods::count;
      case "endswith" -> (t, fn, a, kw) -> startsEnds(t, fn, a, kw, false);
      case "startswith" -> (t, fn, a, kw) -> startsEnds(t, fn, a, kw, true);
      case "find" -> (t, fn, a, kw) -> find(t, fn, a, kw, true, false);
      case "rfind" -> (t, fn, a, kw) -> find(t, fn, a, kw, true, true);
      case "index" -> (t, fn, a, kw) -> find(t, fn, a, kw, false, false);
      case "rindex" -> (t, fn, a, kw) -> find(t, fn, a, kw, false, true);
      case "format" -> (t, fn, a, kw) -> Formatter.format(t, recv(fn), a, kw);
      case "isalnum" ->
          (t, fn, a, kw) -> all(fn, a, kw, r -> Character.isLetter(r) || Character.isDigit(r));
      case "isalpha" -> (t, fn, a, kw) -> all(fn, a, kw, Character::isLetter);
      case "isdigit" -> (t, fn, a, kw) -> all(fn, a, kw, Character::isDigit);
      case "isspace" -> (t, fn, a, kw) -> all(fn, a, kw, StringMethods::isSpace);
      case "islower" ->
          (t, fn, a, kw) -> {
            Args.positional("islower", a, kw, 0, 0);
            StarlarkString s = recv(fn);
            return Bool.of(isCased(s) && s.equalsString(mapCase(t, s, false)));
          };
      case "isupper" ->
          (t, fn, a, kw) -> {
            Args.positional("isupper", a, kw, 0, 0);
            StarlarkString s = recv(fn);
            return Bool.of(isCased(s) && s.equalsString(mapCase(t, s, true)));
          };
      case "istitle" -> StringMethods::istitle;
      case "join" -> StringMethods::join;
      case "lower" ->
          (t, fn, a, kw) -> {
            Args.positional("lower", a, kw, 0, 0);
            return mapCase(t, recv(fn), false);
          };
      case "upper" ->
          (t, fn, a, kw) -> {
            Args.positional("upper", a, kw, 0, 0);
            return mapCase(t, recv(fn), true);
          };
      case "title" ->
          (t, fn, a, kw) -> {
            Args.positional("title", a, kw, 0, 0);
            return mapRunes(t, recv(fn), false);
          };
      case "lstrip" -> (t, fn, a, kw) -> strip(t, fn, a, kw, true, false);
      case "rstrip" -> (t, fn, a, kw) -> strip(t, fn, a, kw, false, true);
      case "strip" -> (t, fn, a, kw) -> strip(t, fn, a, kw, true, true);
      case "partition" -> (t, fn, a, kw) -> partition(fn, a, kw, false);
      case "rpartition" -> (t, fn, a, kw) -> partition(fn, a, kw, true);
      case "removeprefix" ->
          (t, fn, a, kw) -> {
            StarlarkString p =
                Args.string("removeprefix", 1, Args.positional("removeprefix", a, kw, 1, 1)[0]);
            StarlarkString s = recv(fn);
            return startsWith(s.bytes(), p.bytes(), 0, s.len()) ? s.slice(p.len(), s.len(), 1) : s;
          };
      case "removesuffix" ->
          (t, fn, a, kw) -> {
            StarlarkString p =
                Args.string("removesuffix", 1, Args.positional("removesuffix", a, kw, 1, 1)[0]);
            StarlarkString s = recv(fn);
            return endsWith(s.bytes(), p.bytes(), 0, s.len())
                ? s.slice(0, s.len() - p.len(), 1)
                : s;
          };
      case "replace" -> StringMethods::replace;
      case "split" -> (t, fn, a, kw) -> split(t, fn, a, kw, false);
      case "rsplit" -> (t, fn, a, kw) -> split(t, fn, a, kw, true);
      case "splitlines" -> StringMethods::splitlines;
      default -> null;
    };
  }

  private static StarlarkString recv(Builtin fn) {
    return (StarlarkString) fn.receiver();
  }

  private static Value iterable(
      Builtin fn, Value[] a, List<Map.Entry<String, Value>> kw, StringIterable.Kind kind)
      throws EvalException {
    Args.positional(fn.name(), a, kw, 0, 0);
    return StringIterable.of(recv(fn), kind);
  }

  // ---------------------------------------------------------------- byte search helpers

  /** Needles longer than this are searched with KMP, so a search is linear in the input. */
  private static final int NAIVE_MAX = 16;

  /** Index of {@code needle} in {@code hay[from:to]}, or -1. */
  static int indexOf(byte[] hay, byte[] needle, int from, int to) {
    int n = needle.length;
    if (n == 0) {
      return from <= to ? from : -1;
    }
    if (n > NAIVE_MAX) {
      return kmp(hay, needle, from, to, true);
    }
    byte first = needle[0];
    int last = to - n;
    outer:
    for (int i = from; i <= last; i++) {
      if (hay[i] != first) {
        continue;
      }
      for (int j = 1; j < n; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static int lastIndexOf(byte[] hay, byte[] needle, int from, int to) {
    int n = needle.length;
    if (n > NAIVE_MAX) {
      return kmp(hay, needle, from, to, false);
    }
    outer:
    for (int i = to - n; i >= from; i--) {
      for (int j = 0; j < n; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * Knuth-Morris-Pratt: the first (or last) occurrence of {@code needle} in {@code hay[from:to]}.
   */
  private static int kmp(byte[] hay, byte[] needle, int from, int to, boolean first) {
    int n = needle.length;
    int[] fail = new int[n];
    for (int i = 1, k = 0; i < n; i++) {
      while (k > 0 && needle[i] != needle[k]) {
        k = fail[k - 1];
      }
      if (needle[i] == needle[k]) {
        k++;
      }
      fail[i] = k;
    }
    int last = -1;
    for (int i = from, k = 0; i < to; i++) {
      while (k > 0 && hay[i] != needle[k]) {
        k = fail[k - 1];
      }
      if (hay[i] == needle[k]) {
        k++;
      }
      if (k == n) {
        int start = i - n + 1;
        if (first) {
          return start;
        }
        last = start;
        k = fail[k - 1];
      }
    }
    return last;
  }

  static boolean startsWith(byte[] s, byte[] p, int from, int to) {
    if (to - from < p.length) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      if (s[from + i] != p[i]) {
        return false;
      }
    }
    return true;
  }

  static boolean endsWith(byte[] s, byte[] p, int from, int to) {
    if (to - from < p.length) {
      return false;
    }
    return startsWith(s, p, to - p.length, to);
  }

  /** Go's indices(): normalised, clamped [start, end) for optional start/end arguments. */
  private static int[] indices(String fn, Value startV, Value endV, int len) throws EvalException {
    int start = 0;
    if (startV != null && startV != NoneValue.NONE) {
      start = Operators.asInt32(startV, fn + ": invalid start index: ");
      if (start < 0) {
        start += len;
      }
    }
    start = Math.max(0, Math.min(start, len));
    int end = len;
    if (endV != null && endV != NoneValue.NONE) {
      end = Operators.asInt32(endV, fn + ": invalid end index: ");
      if (end < 0) {
        end += len;
      }
    }
    end = Math.max(0, Math.min(end, len));
    return new int[] {start, end};
  }

  // ---------------------------------------------------------------- methods

  private static Value count(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("count", args, kw, 1, 3);
    byte[] sub = Args.string("count", 1, a[0]).bytes();
    StarlarkString s = recv(fn);
    int[] se = indices("count", a[1], a[2], s.len());
    int start = se[0];
    int end = Math.max(se[0], se[1]);
    t.addByteSteps(end - start);
    if (sub.length == 0) {
      return StarlarkInt.of(Utf8.runeCount(s.bytes(), start, end) + 1);
    }
    int n = 0;
    for (int i = indexOf(s.bytes(), sub, start, end);
        i >= 0;
        i = indexOf(s.bytes(), sub, i + sub.length, end)) {
      n++;
    }
    return StarlarkInt.of(n);
  }

  private static Value startsEnds(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw, boolean starts)
      throws EvalException {
    String name = fn.name();
    Value[] a = Args.positional(name, args, kw, 1, 3);
    StarlarkString s = recv(fn);
    int[] se = indices(name, a[1], a[2], s.len());
    int start = se[0];
    int end = Math.max(se[0], se[1]);
    Value x = a[0];
    if (x instanceof Tuple tup) {
      for (int i = 0; i < tup.len(); i++) {
        if (!(tup.get(i) instanceof StarlarkString p)) {
          throw new EvalException(
              name + ": want string, got " + tup.get(i).type() + ", for element " + i);
        }
        if (starts
            ? startsWith(s.bytes(), p.bytes(), start, end)
            : endsWith(s.bytes(), p.bytes(), start, end)) {
          return Bool.TRUE;
        }
      }
      return Bool.FALSE;
    }
    if (x instanceof StarlarkString p) {
      return Bool.of(
          starts
              ? startsWith(s.bytes(), p.bytes(), start, end)
              : endsWith(s.bytes(), p.bytes(), start, end));
    }
    throw new EvalException(name + ": got " + x.type() + ", want string or tuple of string");
  }

  private static Value find(
      StarlarkThread t,
      Builtin fn,
      Value[] args,
      List<Map.Entry<String, Value>> kw,
      boolean allowMissing,
      boolean last)
      throws EvalException {
    String name = fn.name();
    Value[] a = Args.positional(name, args, kw, 1, 3);
    byte[] sub = Args.string(name, 1, a[0]).bytes();
    StarlarkString s = recv(fn);
    int[] se = indices(name, a[1], a[2], s.len());
    int start = se[0];
    int end = Math.max(se[0], se[1]);
    t.addByteSteps(end - start);
    int i = last ? lastIndexOf(s.bytes(), sub, start, end) : indexOf(s.bytes(), sub, start, end);
    if (i < 0) {
      if (!allowMissing) {
        throw new EvalException(name + ": substring not found");
      }
      return StarlarkInt.of(-1);
    }
    return StarlarkInt.of(i);
  }

  interface RunePredicate {
    boolean test(int r);
  }

  private static Value all(
      Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw, RunePredicate p)
      throws EvalException {
    Args.positional(fn.name(), args, kw, 0, 0);
    byte[] b = recv(fn).bytes();
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      if (!p.test(Utf8.rune(d))) {
        return Bool.FALSE;
      }
      i += Utf8.width(d);
    }
    return Bool.of(b.length > 0);
  }

  /** Go's unicode.IsSpace. */
  static boolean isSpace(int r) {
    if (r < 0x100) {
      return r == ' ' || (r >= '\t' && r <= '\r') || r == 0x85 || r == 0xA0;
    }
    return Character.isSpaceChar(r) || r == 0x2028 || r == 0x2029;
  }

  private static boolean isCasedRune(int r) {
    return Character.isLowerCase(r) || Character.isUpperCase(r) || Character.isTitleCase(r);
  }

  private static boolean isCased(StarlarkString s) {
    byte[] b = s.bytes();
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      if (isCasedRune(Utf8.rune(d))) {
        return true;
      }
      i += Utf8.width(d);
    }
    return false;
  }

  /**
   * A cased string equal to its own title() (so "ǅenan" is a title but "Ǆenan" is not, as in Go).
   */
  private static Value istitle(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Args.positional("istitle", args, kw, 0, 0);
    StarlarkString s = recv(fn);
    return Bool.of(isCased(s) && s.equalsString(mapRunes(t, s, false)));
  }

  /** strings.ToLower / strings.ToUpper (rune-wise, invalid bytes become U+FFFD). */
  private static StarlarkString mapCase(StarlarkThread t, StarlarkString s, boolean upper)
      throws EvalException {
    byte[] b = s.bytes();
    t.addByteSteps(b.length);
    if (Utf8.isAscii(b)) {
      byte[] out = null;
      for (int i = 0; i < b.length; i++) {
        byte c = b[i];
        byte m =
            upper
                ? (c >= 'a' && c <= 'z' ? (byte) (c - 32) : c)
                : (c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c);
        if (m != c) {
          if (out == null) {
            out = b.clone();
          }
          out[i] = m;
        }
      }
      return out == null ? s : StarlarkString.ofBytes(out);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length);
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      int r = Utf8.rune(d);
      i += Utf8.width(d);
      Utf8.encode(out, upper ? Character.toUpperCase(r) : Character.toLowerCase(r));
    }
    return StarlarkString.ofBytes(out.toByteArray());
  }

  /** capitalize (first rune to title case, rest lower) or title (Python word rule). */
  private static StarlarkString mapRunes(StarlarkThread t, StarlarkString s, boolean capitalize)
      throws EvalException {
    byte[] b = s.bytes();
    t.addByteSteps(b.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length);
    boolean prevCased = false;
    boolean first = true;
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      int r = Utf8.rune(d);
      i += Utf8.width(d);
      if (capitalize) {
        r = first ? Character.toTitleCase(r) : Character.toLowerCase(r);
        first = false;
      } else {
        r = prevCased ? Character.toLowerCase(r) : Character.toTitleCase(r);
        prevCased = isCasedRune(r);
      }
      Utf8.encode(out, r);
    }
    return StarlarkString.ofBytes(out.toByteArray());
  }

  private static Value join(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("join", args, kw, 1, 1)[0];
    Iterable it = Args.iterable("join", 1, x);
    byte[] sep = recv(fn).bytes();
    ByteBuffer buf = new ByteBuffer(t);
    try (Iterator iter = it.iterate()) {
      Value v;
      for (int i = 0; (v = iter.next()) != null; i++) {
        if (i > 0) {
          buf.append(sep);
        }
        if (!(v instanceof StarlarkString s)) {
          throw new EvalException("join: in list, want string, got " + v.type());
        }
        if ((i & 1023) == 1023) {
          t.addSteps(16);
        }
        buf.append(s.bytes());
      }
    }
    return buf.toStarlarkString();
  }

  private static Value strip(
      StarlarkThread t,
      Builtin fn,
      Value[] args,
      List<Map.Entry<String, Value>> kw,
      boolean left,
      boolean right)
      throws EvalException {
    String name = fn.name();
    Value cv = Args.positional(name, args, kw, 0, 1)[0];
    StarlarkString s = recv(fn);
    byte[] b = s.bytes();
    int[] cutset = null;
    if (cv != null) {
      byte[] cb = Args.string(name, 1, cv).bytes();
      if (cb.length > 0) {
        List<Integer> rs = new ArrayList<>();
        for (int i = 0; i < cb.length; ) {
          long d = Utf8.decode(cb, i, cb.length);
          rs.add(Utf8.rune(d));
          i += Utf8.width(d);
        }
        cutset = rs.stream().mapToInt(Integer::intValue).toArray();
      }
    }
    int start = 0;
    int end = b.length;
    if (left) {
      while (start < end) {
        long d = Utf8.decode(b, start, end);
        if (!inCutset(Utf8.rune(d), cutset)) {
          break;
        }
        start += Utf8.width(d);
      }
    }
    if (right) {
      while (end > start) {
        int k = end - 1;
        while (k > start && (b[k] & 0xC0) == 0x80 && end - k < 4) {
          k--;
        }
        long d = Utf8.decode(b, k, end);
        int r;
        if (k + Utf8.width(d) != end) {
          r = Utf8.RUNE_ERROR;
          k = end - 1;
        } else {
          r = Utf8.rune(d);
        }
        if (!inCutset(r, cutset)) {
          break;
        }
        end = k;
      }
    }
    if (start == 0 && end == b.length) {
      return s;
    }
    return s.slice(start, end, 1);
  }

  private static boolean inCutset(int r, int[] cutset) {
    if (cutset == null) {
      return isSpace(r);
    }
    for (int c : cutset) {
      if (c == r) {
        return true;
      }
    }
    return false;
  }

  private static Value partition(
      Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw, boolean last)
      throws EvalException {
    String name = fn.name();
    StarlarkString sep = Args.string(name, 1, Args.positional(name, args, kw, 1, 1)[0]);
    if (sep.len() == 0) {
      throw new EvalException(name + ": empty separator");
    }
    StarlarkString s = recv(fn);
    int i =
        last
            ? lastIndexOf(s.bytes(), sep.bytes(), 0, s.len())
            : indexOf(s.bytes(), sep.bytes(), 0, s.len());
    if (i < 0) {
      return last
          ? Tuple.wrap(new Value[] {StarlarkString.EMPTY, StarlarkString.EMPTY, s})
          : Tuple.wrap(new Value[] {s, StarlarkString.EMPTY, StarlarkString.EMPTY});
    }
    return Tuple.wrap(new Value[] {s.slice(0, i, 1), sep, s.slice(i + sep.len(), s.len(), 1)});
  }

  private static Value replace(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("replace", args, kw, 2, 3);
    byte[] old = Args.string("replace", 1, a[0]).bytes();
    byte[] neu = Args.string("replace", 2, a[1]).bytes();
    int count = a[2] == null ? -1 : Args.int32("replace", 3, a[2]);
    StarlarkString s = recv(fn);
    byte[] b = s.bytes();
    t.addByteSteps(b.length);
    if (count == 0 || (old.length == 0 && neu.length == 0)) {
      return s;
    }
    ByteBuffer out = new ByteBuffer(t);
    if (old.length == 0) {
      // Go: insert new before each rune and at the end, up to count times.
      int n = 0;
      int i = 0;
      while (true) {
        if (count >= 0 && n >= count) {
          out.append(b, i, b.length);
          break;
        }
        out.append(neu);
        n++;
        if (i >= b.length) {
          break;
        }
        int w = Utf8.width(Utf8.decode(b, i, b.length));
        out.append(b, i, i + w);
        i += w;
      }
      return out.toStarlarkString();
    }
    int i = 0;
    int n = 0;
    while (count < 0 || n < count) {
      int j = indexOf(b, old, i, b.length);
      if (j < 0) {
        break;
      }
      out.append(b, i, j);
      out.append(neu);
      i = j + old.length;
      n++;
    }
    if (n == 0) {
      return s;
    }
    out.append(b, i, b.length);
    return out.toStarlarkString();
  }

  private static Value split(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw, boolean right)
      throws EvalException {
    String name = fn.name();
    Value[] a = Args.positional(name, args, kw, 0, 2);
    int maxsplit = a[1] == null ? -1 : Args.int32(name, 2, a[1]);
    StarlarkString s = recv(fn);
    byte[] b = s.bytes();
    t.addByteSteps(b.length);
    ArrayList<Value> res = new ArrayList<>();
    if (a[0] == null || a[0] == NoneValue.NONE) {
      if (right) {
        rsplitSpace(s, b, maxsplit, res);
      } else {
        splitSpace(s, b, maxsplit, res);
      }
    } else if (a[0] instanceof StarlarkString sepS) {
      byte[] sep = sepS.bytes();
      if (sep.length == 0) {
        throw new EvalException("split: empty separator");
      }
      if (!right || maxsplit < 0) {
        int i = 0;
        while (maxsplit < 0 || res.size() < maxsplit) {
          int j = indexOf(b, sep, i, b.length);
          if (j < 0) {
            break;
          }
          res.add(s.slice(i, j, 1));
          i = j + sep.length;
        }
        res.add(s.slice(i, b.length, 1));
      } else {
        int end = b.length;
        while (res.size() < maxsplit) {
          int j = lastIndexOf(b, sep, 0, end);
          if (j < 0) {
            break;
          }
          res.add(s.slice(j + sep.length, end, 1));
          end = j;
        }
        res.add(s.slice(0, end, 1));
        Collections.reverse(res);
      }
    } else {
      throw new EvalException("split: got " + a[0].type() + " for separator, want string");
    }
    t.allocate(16L * res.size());
    return new StarlarkList(res);
  }

  private static void splitSpace(StarlarkString s, byte[] b, int max, List<Value> res) {
    int start = -1;
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      int w = Utf8.width(d);
      if (isSpace(Utf8.rune(d))) {
        if (start >= 0) {
          res.add(s.slice(start, i, 1));
          start = -1;
        }
      } else if (start == -1) {
        if (max >= 0 && res.size() == max) {
          res.add(s.slice(i, b.length, 1));
          return;
        }
        start = i;
      }
      i += w;
    }
    if (start >= 0) {
      res.add(s.slice(start, b.length, 1));
    }
  }

  private static void rsplitSpace(StarlarkString s, byte[] b, int max, List<Value> res) {
    int end = -1;
    int i = b.length;
    while (i > 0) {
      int k = i - 1;
      while (k > 0 && (b[k] & 0xC0) == 0x80 && i - k < 4) {
        k--;
      }
      long d = Utf8.decode(b, k, i);
      int r;
      if (k + Utf8.width(d) != i) {
        k = i - 1;
        r = Utf8.RUNE_ERROR;
      } else {
        r = Utf8.rune(d);
      }
      if (isSpace(r)) {
        if (end >= 0) {
          res.add(s.slice(i, end, 1));
          end = -1;
        }
      } else if (end == -1) {
        if (max >= 0 && res.size() == max) {
          res.add(s.slice(0, i, 1));
          Collections.reverse(res);
          return;
        }
        end = i;
      }
      i = k;
    }
    if (end >= 0) {
      res.add(s.slice(0, end, 1));
    }
    Collections.reverse(res);
  }

  private static Value splitlines(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value k = Args.positional("splitlines", args, kw, 0, 1)[0];
    boolean keepends = k != null && Args.bool("splitlines", 1, k);
    StarlarkString s = recv(fn);
    byte[] b = s.bytes();
    t.addByteSteps(b.length);
    ArrayList<Value> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '\n') {
        lines.add(s.slice(start, keepends ? i + 1 : i, 1));
        start = i + 1;
      }
    }
    if (start < b.length) {
      lines.add(s.slice(start, b.length, 1));
    }
    return new StarlarkList(lines);
  }
}
