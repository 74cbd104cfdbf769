package dev.agentcompute.starlark.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Token-level mutation of real programs: deletes, duplicates, swaps and replaces tokens (numbers by
 * boundary values, strings by format strings and escapes, names by other names), inserts snippets
 * that make values grow or nest, and moves or re-indents lines. Most results still parse, so they
 * reach the evaluator with values and shapes the corpus never had.
 */
final class Mutator {
  private static final Pattern TOKEN =
      Pattern.compile(
          "(?<str>[rRbB]{0,2}(?:\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|\"(?:\\\\.|[^\"\\\\\\n])*\""
              + "|'(?:\\\\.|[^'\\\\\\n])*'))"
              + "|(?<num>0[xXoObB][0-9a-fA-F_]+|\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)"
              + "|(?<id>[A-Za-z_][A-Za-z0-9_]*)"
              + "|(?<op>\\*\\*=?|//=?|<<=?|>>=?|[-+*/%&|^<>!=]=|[-+*/%&|^~<>=()\\[\\]{}:,.;])"
              + "|(?<nl>\\n)"
              + "|(?<ws>[ \\t]+)"
              + "|(?<other>[\\s\\S])");

  private static final String[] NUMBERS = {
    "0",
    "-1",
    "1",
    "2147483648",
    "9223372036854775808",
    "(1 << 511)",
    "(1 << 511) * (1 << 511)",
    "1e308",
    "-0.0",
    "float('nan')",
    "0x7fffffff",
    "99999999999999999999999999",
    "1000000",
    "100000000",
    "-2147483649",
    "3.5"
  };
  private static final String[] STRINGS = {
    "''",
    "'%d %s %r %x'",
    "'{} {0} {x}'",
    "'\\xff'",
    "'é'",
    "'a' * 100000",
    "'%'",
    "'{'",
    "'[[[[1]]]]'",
    "'\\U0010ffff'",
    "b'\\xff'",
    "'%.1000000f'"
  };
  private static final String[] NAMES = {
    "len",
    "str",
    "int",
    "sorted",
    "json",
    "math",
    "sum",
    "range",
    "list",
    "dict",
    "main",
    "f",
    "x",
    "y",
    "None",
    "True",
    "assert",
    "freeze",
    "repr",
    "hash",
    "tuple",
    "enumerate"
  };
  private static final java.util.Set<String> BINARY =
      java.util.Set.of(
          "+", "-", "*", "/", "//", "%", "<<", ">>", "|", "&", "^", "==", "!=", "<", ">", "<=",
          ">=", "+=", "-=", "*=", "//=", "%=", "|=", "<<=");
  private static final String[] BINARY_OPS = BINARY.stream().sorted().toArray(String[]::new);
  private static final String[] GROWTH = {
    " * 1000",
    " * 100000",
    " << 511",
    " * (1 << 511)",
    " + [0] * 100000",
    " * x",
    ".upper()",
    "[::-1]",
    "[0]",
    " % (1,)",
    " == [[]] * 1000"
  };
  private static final String[] SNIPPETS = {
    " * 1000000",
    " << 511",
    " * x",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    " for x in range(100)",
    " if x else y",
    "lambda x: x",
    ".format(1)",
    " % (1, 2)",
    "json.decode('[' * 2000 + ']' * 2000)",
    "json.encode",
    "sorted(",
    "str(",
    "[[[[[[[[[[",
    "]]]]]]]]]]",
    "\n",
    "\n    ",
    "\t",
    "\\\n",
    "'''",
    "#",
    ", *[1, 2]",
    ", **{'a': 1}",
    " 1e999 ",
    "0o8",
    "09",
    " is "
  };

  private final Random r;

  private Mutator(long seed) {
    this.r = new Random(seed);
  }

  /** {@code src} with 1 to 4 random token-level edits (the same seed gives the same result). */
  static String mutate(String src, long seed) {
    return new Mutator(seed).apply(src);
  }

  private record Tok(String text, String kind) {}

  private static List<Tok> tokens(String src) {
    List<Tok> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(src);
    while (m.find()) {
      String kind = "other";
      for (String k : new String[] {"str", "num", "id", "op", "nl", "ws"}) {
        if (m.group(k) != null) {
          kind = k;
          break;
        }
      }
      out.add(new Tok(m.group(), kind));
    }
    return out;
  }

  private String apply(String src) {
    List<Tok> toks = tokens(src);
    int edits = 1 + r.nextInt(4);
    for (int e = 0; e < edits && !toks.isEmpty(); e++) {
      int i = r.nextInt(toks.size());
      Tok t = toks.get(i);
      switch (r.nextInt(20)) {
        case 0, 1, 2, 3, 4, 5, 6, 7 -> toks.set(i, new Tok(replacement(toks, t), t.kind()));
        case 8, 9 -> nest(toks, i);
        case 10 -> moveLine(toks, i);
        case 11 -> reindent(toks, i);
        case 12 -> toks.remove(i);
        case 13 -> toks.add(i, t);
        case 14 -> {
          if (i + 1 < toks.size()) {
            toks.set(i, toks.get(i + 1));
            toks.set(i + 1, t);
          }
        }
        case 15 -> toks.add(i, new Tok(pick(SNIPPETS), "other"));
        case 16, 17 -> {
          if (t.kind().equals("num") || t.kind().equals("id") || t.kind().equals("str")) {
            toks.add(i + 1, new Tok(pick(GROWTH), "other"));
          }
        }
        default -> {
          int j = Math.min(toks.size(), i + 1 + r.nextInt(12));
          toks.addAll(r.nextInt(toks.size() + 1), new ArrayList<>(toks.subList(i, j)));
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    for (Tok t : toks) {
      sb.append(t.text());
    }
    return sb.toString();
  }

  /** A token of the same kind: most mutations keep the program parsing. */
  private String replacement(List<Tok> toks, Tok t) {
    return switch (t.kind()) {
      case "num" -> pick(NUMBERS);
      case "str" -> pick(STRINGS);
      case "id" -> r.nextInt(3) == 0 ? pick(NAMES) : sameKind(toks, "id", t.text());
      case "op" -> BINARY.contains(t.text()) ? pick(BINARY_OPS) : t.text();
      default -> t.text();
    };
  }

  /** Another token of {@code kind} from the same program, or {@code fallback}. */
  private String sameKind(List<Tok> toks, String kind, String fallback) {
    for (int tries = 0; tries < 20; tries++) {
      Tok o = toks.get(r.nextInt(toks.size()));
      if (o.kind().equals(kind)) {
        return o.text();
      }
    }
    return fallback;
  }

  /** Copies the line holding token {@code i} before another line. */
  private void moveLine(List<Tok> toks, int i) {
    int start = i;
    while (start > 0 && !toks.get(start - 1).kind().equals("nl")) {
      start--;
    }
    int end = i;
    while (end < toks.size() && !toks.get(end).kind().equals("nl")) {
      end++;
    }
    List<Tok> line = new ArrayList<>(toks.subList(start, Math.min(toks.size(), end + 1)));
    int at = r.nextInt(toks.size() + 1);
    while (at > 0 && at < toks.size() && !toks.get(at - 1).kind().equals("nl")) {
      at--;
    }
    toks.addAll(at, line);
  }

  /** Changes the indentation that follows the newline nearest before token {@code i}. */
  private void reindent(List<Tok> toks, int i) {
    for (int k = i; k >= 0; k--) {
      if (toks.get(k).kind().equals("nl")) {
        String ws = pick("", " ", "    ", "        ", "\t", "  \t");
        if (k + 1 < toks.size() && toks.get(k + 1).kind().equals("ws")) {
          toks.set(k + 1, new Tok(ws, "ws"));
        } else {
          toks.add(k + 1, new Tok(ws, "ws"));
        }
        return;
      }
    }
  }

  /** Wraps token {@code i} in many brackets (nesting the interpreter must bound). */
  private void nest(List<Tok> toks, int i) {
    int depth = 1 + r.nextInt(r.nextBoolean() ? 10 : 500);
    String open = pick("[", "(", "[[", "-", "not ");
    String close = open.startsWith("[") ? "]".repeat(open.length()) : open.equals("(") ? ")" : "";
    toks.add(i + 1, new Tok(close.repeat(depth), "op"));
    toks.add(i, new Tok(open.repeat(depth), "op"));
  }

  private String pick(String... choices) {
    return choices[r.nextInt(choices.length)];
  }
}
