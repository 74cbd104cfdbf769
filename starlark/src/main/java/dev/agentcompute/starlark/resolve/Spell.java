package dev.agentcompute.starlark.resolve;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Spelling suggestions for "did you mean" hints: starlark-go's internal/spell, the one helper for
 * undefined names, missing fields and methods, keyword arguments and load names.
 */
public final class Spell {
  private Spell() {}

  /**
   * The candidate nearest to {@code x} by Levenshtein distance over UTF-8 bytes, ignoring case and
   * underscores, or null if none is within half of x's length (Go's spell.Nearest).
   */
  public static String nearest(String x, Collection<String> candidates) {
    byte[] fx = fold(x);
    String best = null;
    int bestD = (fx.length + 1) / 2; // allow up to 50% typos
    for (String c : candidates) {
      int d = levenshtein(fx, fold(c), bestD);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  private static byte[] fold(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    s.codePoints().filter(c -> c != '_').map(Character::toLowerCase).forEach(sb::appendCodePoint);
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The edit distance between byte strings {@code x} and {@code y}; beyond {@code max} it may
   * return early with an approximate value above {@code max}, as Go's does.
   */
  private static int levenshtein(byte[] x, byte[] y, int max) {
    if (x.length > y.length) { // let x be the shorter
      byte[] t = x;
      x = y;
      y = t;
    }
    int common = 0; // remove the common prefix
    while (common < x.length && x[common] == y[common]) {
      common++;
    }
    int nx = x.length - common;
    int ny = y.length - common;
    if (nx == 0) {
      return ny;
    }
    if (ny - nx > max) {
      return ny - nx; // excessive length divergence
    }
    int[] row = new int[ny + 1];
    for (int j = 0; j <= ny; j++) {
      row[j] = j;
    }
    for (int i = 1; i <= nx; i++) {
      row[0] = i;
      int best = i;
      int prev = i - 1;
      for (int j = 1; j <= ny; j++) {
        int a = prev + (x[common + i - 1] != y[common + j - 1] ? 1 : 0); // substitution
        int b = 1 + row[j - 1]; // deletion
        int c = 1 + row[j]; // insertion
        int k = Math.min(a, Math.min(b, c));
        prev = row[j];
        row[j] = k;
        best = Math.min(best, k);
      }
      if (best > max) {
        return best;
      }
    }
    return row[ny];
  }
}
