package dev.agentcompute.starlark.conformance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One top-level statement of a chunk (with its indented body and {@code elif}/{@code else} parts):
 * its lines, the names it binds, mutates and uses, and the test features it needs.
 */
final class StatementGroup {
  private static final Set<String> ASSIGN_OPS =
      Set.of("=", "+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>=");

  final List<Tok> tokens = new ArrayList<>();
  final Set<String> bound = new HashSet<>();
  final Set<String> mutated = new HashSet<>();
  final Set<String> used = new HashSet<>();
  final Set<String> features = new HashSet<>();
  int start = Integer.MAX_VALUE;
  int end;
  boolean isLoad;

  /** Groups the logical lines of a chunk into top-level statements. */
  static List<StatementGroup> of(List<StatementScanner.Line> lines) {
    List<StatementGroup> groups = new ArrayList<>();
    for (StatementScanner.Line l : lines) {
      String first = l.tokens().get(0).text();
      if ((l.topLevel() && !first.equals("elif") && !first.equals("else")) || groups.isEmpty()) {
        StatementGroup g = new StatementGroup();
        g.head(l.tokens());
        groups.add(g);
      }
      StatementGroup g = groups.get(groups.size() - 1);
      g.tokens.addAll(l.tokens());
      g.start = Math.min(g.start, l.tokens().get(0).line());
      for (Tok t : l.tokens()) {
        g.end = Math.max(g.end, t.endLine());
      }
    }
    groups.forEach(StatementGroup::body);
    return groups;
  }

  boolean spans(int line) {
    return start <= line && line <= end;
  }

  /** The names the statement's first line binds or mutates. */
  private void head(List<Tok> toks) {
    Tok first = toks.get(0);
    if (first.is(Tok.Kind.NAME, "def") && toks.size() > 1) {
      bound.add(toks.get(1).text());
      return;
    }
    if (first.is(Tok.Kind.NAME, "load")) {
      isLoad = true;
      int depth = 0;
      boolean seenModule = false;
      for (int i = 0; i < toks.size(); i++) {
        Tok t = toks.get(i);
        if (t.isOpen()) {
          depth++;
        } else if (t.isClose()) {
          depth--;
        } else if (depth == 1 && t.kind() == Tok.Kind.STRING) {
          if (!seenModule) {
            seenModule = true;
          } else if (!toks.get(i - 1).isOp("=")) {
            bound.add(unquote(t.text()));
          }
        } else if (depth == 1
            && t.kind() == Tok.Kind.NAME
            && i + 1 < toks.size()
            && toks.get(i + 1).isOp("=")) {
          bound.add(t.text());
        }
      }
      return;
    }
    int depth = 0;
    for (int i = 0; i < toks.size(); i++) {
      Tok t = toks.get(i);
      if (t.isOpen()) {
        depth++;
      } else if (t.isClose()) {
        depth--;
      } else if (depth == 0 && t.kind() == Tok.Kind.OP && ASSIGN_OPS.contains(t.text())) {
        List<Tok> lhs = toks.subList(0, i);
        if (lhs.size() >= 2
            && lhs.get(0).kind() == Tok.Kind.NAME
            && (lhs.get(1).isOp(".") || lhs.get(1).isOp("["))) {
          mutated.add(lhs.get(0).text());
        } else {
          for (int j = 0; j < lhs.size(); j++) {
            if (lhs.get(j).kind() == Tok.Kind.NAME && (j == 0 || !lhs.get(j - 1).isOp("."))) {
              bound.add(lhs.get(j).text());
            }
          }
        }
        return;
      }
    }
    // an expression statement x.method(...) or x[...] = ... may mutate x
    if (toks.size() >= 2
        && first.kind() == Tok.Kind.NAME
        && (toks.get(1).isOp(".") || toks.get(1).isOp("["))) {
      mutated.add(first.text());
    }
  }

  /** The names the whole statement uses, and the features its tokens show. */
  private void body() {
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      Tok t = tokens.get(i);
      if (t.isOpen()) {
        depth++;
      } else if (t.isClose()) {
        depth--;
      }
      if (t.kind() == Tok.Kind.NAME) {
        boolean afterDot = i > 0 && tokens.get(i - 1).isOp(".");
        boolean kwarg =
            depth > 0
                && i + 1 < tokens.size()
                && tokens.get(i + 1).isOp("=")
                && (i == 0 || tokens.get(i - 1).isOp("(") || tokens.get(i - 1).isOp(","));
        if (!afterDot && !kwarg) {
          used.add(t.text());
        }
        if (t.text().equals("encode_indent") && afterDot) {
          features.add("json_encode_indent");
        }
        if (t.text().equals("while")) {
          features.add("while");
        }
      } else if (t.kind() == Tok.Kind.STRING && t.text().contains("encode_indent")) {
        features.add("json_encode_indent");
      }
    }
  }

  /** A string token's text without the quotes around it. */
  static String unquote(String s) {
    int a = 0;
    int b = s.length();
    while (a < b && (s.charAt(a) == '"' || s.charAt(a) == '\'')) {
      a++;
    }
    while (b > a && (s.charAt(b - 1) == '"' || s.charAt(b - 1) == '\'')) {
      b--;
    }
    return s.substring(a, b);
  }
}
