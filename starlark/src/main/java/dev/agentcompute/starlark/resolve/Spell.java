package dev.agentcompute.starlark.resolve;

import java.util.Collection;

/** Spelling suggestions for "did you mean" hints (starlark-go's internal/spell). */
public final class Spell {
  private Spell() {}

  /**
   * The candidate nearest to x by Levenshtein distance, ignoring case and underscores, or null
   * if none is within half of x's length.
   */
  public static String nearest(String x, Collection<String> candidates) {
    String fx = fold(x);
    String best = null;
    int bestD = (fx.length() + 1) / 2;
    for (String c : candidates) {
      int d = levenshtein(fx, fold(c));
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  private static String fold(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    s.codePoints().filter(c -> c != '_').map(Character::toLowerCase).forEach(sb::appendCodePoint);
    return sb.toString();
  }

  private static int levenshtein(String a, String b) {
    int[] ca = a.codePoints().toArray();
    int[] cb = b.codePoints().toArray();
    int[] prev = new int[cb.length + 1];
    int[] cur = new int[cb.length + 1];
    for (int j = 0; j <= cb.length; j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= ca.length; i++) {
      cur[0] = i;
      for (int j = 1; j <= cb.length; j++) {
        int cost = ca[i - 1] == cb[j - 1] ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[cb.length];
  }
}
