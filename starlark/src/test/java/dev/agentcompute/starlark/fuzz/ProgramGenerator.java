package dev.agentcompute.starlark.fuzz;

import java.util.Random;

/**
 * Random Starlark programs from a grammar, mostly well-formed, that reach the costly corners of the
 * interpreter: big ints, deep nesting, string formatting, comprehensions, recursion attempts,
 * sorting, json, and the builtins and methods with odd arguments. Each defines {@code main()}.
 */
final class ProgramGenerator {
  private static final String[] VARS = {"a", "b", "c", "xs", "d", "s", "n", "t"};
  private static final String[] BINOPS = {
    "+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in",
    "|", "&", "^", "<<", ">>"
  };
  private static final String[] AUGOPS = {"+=", "-=", "*=", "//=", "%=", "|=", "&=", "<<=", ">>="};
  private static final String[] CALLS = {
    "len", "str", "repr", "type", "list", "tuple", "dict", "bool", "int", "float", "sorted",
    "reversed", "range", "enumerate", "zip", "min", "max", "abs", "hash", "any", "all", "dir",
    "print", "chr", "ord", "bytes", "getattr", "hasattr", "sum", "f", "g", "r", "fail"
  };
  private static final String[] METHODS = {
    "append",
    "extend",
    "pop",
    "get",
    "keys",
    "items",
    "values",
    "upper",
    "lower",
    "split",
    "rsplit",
    "join",
    "format",
    "insert",
    "index",
    "count",
    "strip",
    "replace",
    "update",
    "setdefault",
    "find",
    "startswith",
    "partition",
    "splitlines",
    "elems",
    "codepoints",
    "remove",
    "clear",
    "popitem",
    "title",
    "capitalize",
    "isdigit",
    "removeprefix",
    "rfind",
    "lstrip"
  };
  private static final String[] INTS = {
    "0",
    "1",
    "-1",
    "2",
    "7",
    "255",
    "256",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "0x7fffffff",
    "0o777",
    "0b1011",
    "(1 << 511)",
    "(1 << 64)",
    "(3 << 500) * (7 << 500)",
    "12345678901234567890123456789"
  };
  private static final String[] FLOATS = {
    "0.0",
    "-0.0",
    "1.5",
    "1e308",
    "-1e308",
    "5e-324",
    "1e-10",
    "float('nan')",
    "float('inf')",
    "float('-inf')",
    "2.5e15",
    "123456789.0"
  };
  private static final String[] STRINGS = {
    "''",
    "'abc'",
    "'a,b,,c'",
    "'%d %s %r'",
    "'%x %o %e %f %g %c %%'",
    "'{} {0} {x} {!r}'",
    "'\\x7f\\x00'",
    "b'\\xff'",
    "'é€😀'",
    "'\\n\\t '",
    "'%(k)s'",
    "'{{}}'",
    "' 12 '",
    "'AbC'",
    "'%'",
    "'{'",
    "'a' * 1000",
    "'[' * 1500",
    "'{\"a\": [1, 2.5, null, true]}'",
    "'[1, 2, 3]'",
    "'\"\\\\u0000\"'"
  };
  private static final String[] FORMATS = {
    "%d", "%s", "%r", "%x", "%X", "%o", "%e", "%f", "%g", "%E", "%F", "%G", "%c", "%%", "%(k)s",
    "%i", "%z", "%.3f", "%5d", "%"
  };

  private final Random r;
  private final StringBuilder sb = new StringBuilder();

  private ProgramGenerator(long seed) {
    this.r = new Random(seed);
  }

  /**
   * Statements over values of known types (x an int, s a string, l a list, d a dict, f a float, t a
   * tuple): random code stops at its first type error, these keep the program running through
   * costly operations on values grown to sizes K.
   */
  private static final String[] TYPED = {
    "x = x * x",
    "x = x << 511",
    "x = x * (x + K)",
    "x = -x // (K + 1)",
    "x = x % (x // 3 + 1)",
    "s = str(x)",
    "x = int(s) if s.isdigit() else x",
    "s = '%d %x %o' % (x, x, x)",
    "s = json.encode([x, -x])",
    "x = json.decode(json.encode(x))",
    "l = sorted([x, -x, x + 1, x])",
    "d[x] = d.get(x + 0, 0) + 1",
    "t = (x == x + 0, x < x + 1, hash(str(x)[:K]))",
    "s = s * K",
    "s = s + s",
    "s = s.replace('a', 'ab')",
    "l = s.split('a')",
    "s = '%s' % s",
    "s = '{} {}'.format(s, x)",
    "t = (s in s + 'z', s.find('zz'), s.count('a'))",
    "l = list(s.elems())[:K]",
    "s = ','.join([str(i) for i in range(K)])",
    "s = s[::-1][:K]",
    "l = [0] * K",
    "l = l + l",
    "l = [l] * K",
    "t = (l == l[:], l < l + [1])",
    "l = sorted(l, reverse=True)",
    "t = (max(l) if l else 0, min(l) if l else 0)",
    "l.append(l[:])",
    "s = str(l)[:K]",
    "s = json.encode(l)",
    "l = json.decode(s) if s.startswith('[') else l",
    "t = (0 in l, l.index(l[0]) if l else 0)",
    "d = {i: str(i) for i in range(K)}",
    "t = (d == dict(d), len(d.items()))",
    "s = json.encode(d)",
    "d = json.decode(s) if s.startswith('{') else d",
    "l = sorted(d.keys())",
    "d.update({str(K): l})",
    "f = f * f",
    "s = '%f %e %g' % (f, f, f)",
    "s = str(f) + repr(-f)",
    "f = float(K) / 7",
    "t = (f == x, f < x, int(f) if f == f and f not in (float('inf'), float('-inf')) else 0)",
    "l = [[[l]]]",
    "s = json.encode(json.decode('[' * K + ']' * K))",
    "t = (l == [l], str(l)[:K])",
    "t = tuple(l)",
    "d[t] = 1",
    "t = (t == t[:], t < t + (1,))",
    "x = len(str(t))",
    "l = [lambda v: v] + l",
    "t = (sorted([str(i) * K for i in range(10)]), sorted(l[:1] * 0))",
  };

  private static final String[] SIZES = {"0", "1", "2", "10", "100", "1000", "100000", "10000000"};

  /** The program of {@code seed}. */
  static String generate(long seed) {
    ProgramGenerator g = new ProgramGenerator(seed);
    return g.r.nextInt(3) == 0 ? g.typedProgram() : g.program();
  }

  private String typedProgram() {
    sb.append("def main():\n");
    sb.append("    x = ").append(pick(INTS)).append("\n    s = ").append(pick(STRINGS));
    sb.append("\n    l = [1, 'a', None]\n    d = {}\n    f = ").append(pick(FLOATS));
    sb.append("\n    t = ()\n");
    boolean loop = r.nextBoolean();
    if (loop) {
      sb.append("    for i in range(").append(pick("3", "10", "100", "100000")).append("):\n");
    }
    for (int i = 3 + r.nextInt(10); i > 0; i--) {
      String stmt = pick(TYPED).replace("K", pick(SIZES));
      sb.append(loop ? "        " : "    ").append(stmt).append('\n');
    }
    sb.append("    return ").append(pick("x", "s", "l", "d", "f", "t", "len(str(l))")).append('\n');
    return sb.toString();
  }

  private String program() {
    if (r.nextInt(100) == 0) {
      sb.append("load('").append(pick("json.star", "x.star")).append("', 'z')\n");
    }
    sb.append("G = ").append(pick("[1, 2, 3]", "{'k': [1, 2.5]}", "(1 << 100, 'x')", "None"));
    sb.append('\n');
    sb.append("def f(x, y=1, *args, **kw):\n");
    locals();
    block(1, 3, 2);
    sb.append("def g(n, *, k=2):\n");
    locals();
    block(1, 3, 2);
    sb.append("def r(n):\n    return r(n - 1) if n > 0 else ").append(pick(INTS)).append('\n');
    sb.append("def main():\n");
    locals();
    block(1, 8, 3);
    sb.append("    return ").append(expr(3)).append('\n');
    return sb.toString();
  }

  /** Binds every name the statements may use, so that programs resolve. */
  private void locals() {
    sb.append("    a = 1\n    b = 'x'\n    c = 2.5\n    xs = [1, 2]\n    d = {'k': 1}\n");
    sb.append("    s = (1, 'a')\n    n = 3\n    t = None\n");
  }

  private void block(int indent, int maxStmts, int depth) {
    int n = 1 + r.nextInt(maxStmts);
    for (int i = 0; i < n; i++) {
      stmt(indent, depth);
    }
  }

  private void line(int indent, String s) {
    sb.append("    ".repeat(indent)).append(s).append('\n');
  }

  private void stmt(int indent, int depth) {
    int k = r.nextInt(depth > 0 ? 16 : 8);
    switch (k) {
      case 0, 1 -> line(indent, var() + " = " + expr(3));
      case 2 -> line(indent, var() + " " + pick(AUGOPS) + " " + expr(2));
      case 3 -> line(indent, expr(3));
      case 4 -> line(indent, "return " + expr(2));
      case 5 -> line(indent, var() + "[" + expr(1) + "] = " + expr(2));
      case 6 -> line(indent, var() + ", " + var() + " = " + expr(2));
      case 7 -> growth(indent);
      case 8, 9 -> {
        line(indent, "if " + expr(2) + ":");
        block(indent + 1, 3, depth - 1);
        if (r.nextBoolean()) {
          line(indent, "elif " + expr(2) + ":");
          block(indent + 1, 2, depth - 1);
        }
        if (r.nextBoolean()) {
          line(indent, "else:");
          block(indent + 1, 2, depth - 1);
        }
      }
      case 10, 11 -> {
        line(indent, "for " + var() + " in " + iterable() + ":");
        block(indent + 1, 3, depth - 1);
        if (r.nextBoolean()) {
          line(indent + 1, r.nextBoolean() ? "break" : "continue");
        }
      }
      case 12 -> {
        // rarely: CodeMode's dialect rejects every program with a while loop
        line(indent, (r.nextInt(8) == 0 ? "while " : "if ") + expr(2) + ":");
        block(indent + 1, 3, depth - 1);
      }
      case 13 -> {
        line(indent, "def h" + r.nextInt(3) + "(p, q=" + expr(1) + ", *rest, **kw):");
        block(indent + 1, 2, depth - 1);
      }
      case 14 -> line(indent, "pass");
      default -> line(indent, var() + " = " + pick("f", "g") + "(" + args(1) + ")");
    }
  }

  /** Statements that make values grow: squaring, shifting, repetition, nesting. */
  private void growth(int indent) {
    String v = var();
    switch (r.nextInt(6)) {
      case 0 -> loop(indent, r.nextInt(64), v + " = " + v + " * " + v);
      case 1 -> loop(indent, r.nextInt(3000), v + " <<= 511");
      case 2 ->
          line(indent, v + " = " + expr(1) + " * " + pick("1000", "100000", "10000000", "-1"));
      case 3 -> loop(indent, r.nextInt(300), v + " = [" + v + "]");
      case 4 -> {
        int depth = r.nextInt(r.nextInt(10) == 0 ? 300 : 150);
        line(indent, v + " = " + "[".repeat(depth) + expr(1) + "]".repeat(depth));
      }
      default -> line(indent, v + " = " + expr(1) + " + " + expr(1));
    }
  }

  private void loop(int indent, int times, String body) {
    line(indent, "for _ in range(" + times + "):");
    line(indent + 1, body);
  }

  private String iterable() {
    return switch (r.nextInt(6)) {
      case 0 -> "range(" + pick("10", "1000", "100000", "-5", "0, 100, 7", "2147483647") + ")";
      case 1 -> var();
      case 2 -> var() + ".elems()";
      case 3 -> "sorted(" + var() + ")";
      case 4 -> "enumerate(" + var() + ")";
      default -> expr(2);
    };
  }

  private String var() {
    return VARS[r.nextInt(VARS.length)];
  }

  private String pick(String... choices) {
    return choices[r.nextInt(choices.length)];
  }

  private String expr(int depth) {
    int k = r.nextInt(depth > 0 ? 26 : 8);
    return switch (k) {
      case 0, 1 -> var();
      case 2 -> pick(INTS);
      case 3 -> pick(FLOATS);
      case 4 -> pick(STRINGS);
      case 5 -> pick("None", "True", "False", "G", "b'\\x00\\xff'", "()", "[]", "{}");
      case 6 -> Integer.toString(r.nextInt(2000) - 1000);
      case 7 -> "'" + pick("abc", "k", "x,y", " ") + "'";
      case 8, 9 -> "(" + expr(depth - 1) + " " + pick(BINOPS) + " " + expr(depth - 1) + ")";
      case 10 -> pick(CALLS) + "(" + args(depth - 1) + ")";
      case 11 -> operand(depth - 1) + "." + pick(METHODS) + "(" + args(depth - 1) + ")";
      case 12 ->
          "[" + expr(depth - 1) + " for " + var() + " in " + iterable() + " if " + expr(0) + "]";
      case 13 ->
          "{"
              + expr(depth - 1)
              + ": "
              + expr(depth - 1)
              + " for "
              + var()
              + " in "
              + iterable()
              + "}";
      case 14 ->
          operand(depth - 1)
              + "["
              + expr(0)
              + (r.nextBoolean() ? ":" + expr(0) : "")
              + (r.nextInt(3) == 0 ? ":" + pick("-1", "2", "0", "None") : "")
              + "]";
      case 15 -> "{" + expr(depth - 1) + ": " + expr(depth - 1) + "}";
      case 16 -> "(lambda z, *w: " + expr(depth - 1) + ")(" + args(depth - 1) + ")";
      case 17 ->
          "(" + expr(depth - 1) + " if " + expr(depth - 1) + " else " + expr(depth - 1) + ")";
      case 18 ->
          "'"
              + format()
              + "' % "
              + (r.nextBoolean() ? expr(depth - 1) : "(" + positional(depth - 1) + ",)");
      case 19 ->
          "'"
              + pick("{}{0}{x}", "{} {}", "{x!r}", "{0}{1}", "{{}}{}", "{:d}")
              + "'.format("
              + positional(depth - 1)
              + ", x="
              + expr(0)
              + ")";
      case 20 ->
          "json."
              + pick("encode", "decode", "indent")
              + "("
              + expr(depth - 1)
              + pick("", ", " + expr(0), ", default=" + expr(0), ", indent='  '")
              + ")";
      case 21 ->
          "sorted("
              + expr(depth - 1)
              + pick("", ", reverse=True", ", key=lambda v: -v", ", key=str", ", key=len")
              + ")";
      case 22 ->
          "math."
              + pick("floor", "ceil", "sqrt", "log", "pow", "round", "mod")
              + "("
              + args(0)
              + ")";
      case 23 -> "r(" + pick("3", "100", "-1", var()) + ")";
      case 24 -> "-" + operand(depth - 1);
      default -> "(" + expr(depth - 1) + ", " + expr(depth - 1) + ")";
    };
  }

  /**
   * An expression that may be followed by {@code .name} or {@code [i]}: a name or parenthesised.
   */
  private String operand(int depth) {
    String e = expr(depth);
    return e.matches("[a-zA-Z_]\\w*") ? e : "(" + e + ")";
  }

  private String format() {
    StringBuilder f = new StringBuilder();
    for (int i = r.nextInt(4); i >= 0; i--) {
      f.append(pick("", "x", " ")).append(pick(FORMATS));
    }
    return f.toString();
  }

  /** At least one positional argument. */
  private String positional(int depth) {
    StringBuilder a = new StringBuilder(expr(depth));
    for (int i = r.nextInt(3); i > 0; i--) {
      a.append(", ").append(expr(depth));
    }
    return a.toString();
  }

  private String args(int depth) {
    int n = r.nextInt(4);
    StringBuilder a = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        a.append(", ");
      }
      a.append(expr(depth));
    }
    if (r.nextInt(6) == 0) {
      a.append(n > 0 ? ", " : "").append(pick("k=", "x=", "sep=", "key=")).append(expr(0));
    }
    if (r.nextInt(6) == 0) {
      a.append(a.length() > 0 ? ", " : "").append(r.nextBoolean() ? "*" : "**").append(var());
    }
    return a.toString();
  }
}
