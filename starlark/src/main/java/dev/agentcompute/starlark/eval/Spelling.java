package dev.agentcompute.starlark.eval;

import java.util.Collection;

/** Go's internal/spell.Nearest: the closest candidate within a small edit distance, for hints. */
public final class Spelling {
  private Spelling() {}

  /** The candidate nearest to {@code x}, or {@code null} if none is close enough. */
  public static String nearest(String x, Collection<String> candidates) {
    String fold = fold(x);
    String best = null;
    int bestD = (fold.length() + 1) / 2; // allow up to 50% typos
    for (String c : candidates) {
      int d = levenshtein(fold, fold(c), bestD);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  private static String fold(String s) {
    return s.replace("_", "").toLowerCase();
  }

  private static int levenshtein(String a, String b, int max) {
    if (a.equals(b)) {
      return 0;
    }
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
