package dev.agentcompute.starlark.eval;

import java.util.Random;

/** Builds random, mostly well-formed Starlark programs for property tests. */
final class ProgramGenerator {
  private static final String[] VARS = {"a", "b", "c", "xs", "d", "s"};
  private static final String[] BINOPS = {"+", "-", "*", "/", "//", "%", "==", "!=", "<", ">=", "and", "or", "in", "not in", "|", "&", "^", "<<", ">>"};
  private static final String[] CALLS = {"len", "str", "repr", "type", "list", "tuple", "dict", "bool", "int", "float", "sorted", "reversed", "range", "enumerate", "zip", "min", "max", "abs", "hash", "any", "all", "dir", "print", "f", "g", "fail"};
  private static final String[] METHODS = {"append", "extend", "pop", "get", "keys", "items", "upper", "split", "join", "format", "insert", "index", "count", "strip", "replace", "update", "setdefault"};

  private final Random r;
  private final StringBuilder sb = new StringBuilder();

  private ProgramGenerator(long seed) {
    this.r = new Random(seed);
  }

  static String generate(long seed) {
    return new ProgramGenerator(seed).program();
  }

  private String program() {
    sb.append("G = [1, 2, 3]\n");
    sb.append("def f(x, y=1, *args, **kw):\n");
    block(1, 3, 2);
    sb.append("def g(n):\n");
    block(1, 3, 2);
    sb.append("def main():\n");
    sb.append("    a = 1\n    b = 'x'\n    c = 2.5\n    xs = [1, 2]\n    d = {'k': 1}\n    s = (1, 'a')\n");
    block(1, 6, 3);
    sb.append("    return ").append(expr(3)).append('\n');
    return sb.toString();
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
    int k = r.nextInt(depth > 0 ? 11 : 6);
    switch (k) {
      case 0, 1 -> line(indent, var() + " = " + expr(3));
      case 2 -> line(indent, var() + " += " + expr(2));
      case 3 -> line(indent, expr(3));
      case 4 -> line(indent, "return " + expr(2));
      case 5 -> line(indent, var() + "[" + expr(1) + "] = " + expr(2));
      case 6 -> {
        line(indent, "if " + expr(2) + ":");
        block(indent + 1, 3, depth - 1);
        if (r.nextBoolean()) {
          line(indent, "else:");
          block(indent + 1, 2, depth - 1);
        }
      }
      case 7 -> {
        line(indent, "for " + var() + " in " + expr(2) + ":");
        block(indent + 1, 3, depth - 1);
        if (r.nextBoolean()) {
          line(indent + 1, r.nextBoolean() ? "break" : "continue");
        }
      }
      case 8 -> {
        line(indent, "while " + expr(2) + ":");
        block(indent + 1, 3, depth - 1);
      }
      case 9 -> {
        line(indent, "def h" + r.nextInt(3) + "(p, q=" + expr(1) + "):");
        block(indent + 1, 2, depth - 1);
      }
      default -> line(indent, var() + ", " + var() + " = " + expr(2));
    }
  }

  private String var() {
    return VARS[r.nextInt(VARS.length)];
  }

  private String expr(int depth) {
    int k = r.nextInt(depth > 0 ? 14 : 5);
    return switch (k) {
      case 0 -> var();
      case 1 -> Integer.toString(r.nextInt(2000) - 1000);
      case 2 -> "'" + "abc".substring(r.nextInt(3)) + "'";
      case 3 -> r.nextBoolean() ? "None" : "True";
      case 4 -> r.nextInt(3) == 0 ? "G" : "1.5";
      case 5, 6 -> "(" + expr(depth - 1) + " " + BINOPS[r.nextInt(BINOPS.length)] + " " + expr(depth - 1) + ")";
      case 7 -> CALLS[r.nextInt(CALLS.length)] + "(" + args(depth - 1) + ")";
      case 8 -> expr(depth - 1) + "." + METHODS[r.nextInt(METHODS.length)] + "(" + args(depth - 1) + ")";
      case 9 -> "[" + expr(depth - 1) + " for " + var() + " in " + expr(depth - 1) + " if " + expr(depth - 1) + "]";
      case 10 -> expr(depth - 1) + "[" + expr(depth - 1) + (r.nextBoolean() ? ":" + expr(depth - 1) : "") + "]";
      case 11 -> "{" + expr(depth - 1) + ": " + expr(depth - 1) + "}";
      case 12 -> "(lambda z: " + expr(depth - 1) + ")(" + expr(depth - 1) + ")";
      default -> expr(depth - 1) + " if " + expr(depth - 1) + " else " + expr(depth - 1);
    };
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
    if (r.nextInt(5) == 0) {
      a.append(n > 0 ? ", " : "").append("*").append(var());
    }
    return a.toString();
  }

  /** Applies random character-level edits to a program. */
  static String mutate(String src, long seed) {
    Random r = new Random(seed);
    StringBuilder s = new StringBuilder(src);
    int edits = 1 + r.nextInt(6);
    String alphabet = "()[]{}:,.=+-*/%<>!&|^~#'\"\\\n\t abcxyz0123456789_";
    for (int i = 0; i < edits && s.length() > 0; i++) {
      int pos = r.nextInt(s.length());
      switch (r.nextInt(4)) {
        case 0 -> s.deleteCharAt(pos);
        case 1 -> s.insert(pos, alphabet.charAt(r.nextInt(alphabet.length())));
        case 2 -> s.setCharAt(pos, alphabet.charAt(r.nextInt(alphabet.length())));
        default -> {
          int end = Math.min(s.length(), pos + r.nextInt(40));
          s.insert(r.nextInt(s.length()), s.substring(pos, end));
        }
      }
    }
    return s.toString();
  }
}
