package dev.agentcompute.codemode.search;

import dev.agentcompute.codemode.binding.GoStrings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one tokenizer for queries and documents: separators are runes that are neither letters nor
 * digits; camel-case, acronym-to-word and letter/number transitions split tokens (but the second
 * hump of a token that started upper-case does not: {@code createPullRequest} gives {@code create,
 * pullrequest}); tokens are lower-cased and connector words dropped.
 */
final class Tokenizer {

  static final Set<String> CONNECTORS =
      Set.of("a", "an", "and", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with");

  private Tokenizer() {}

  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    String s = GoStrings.trimSpace(text);
    int[] cps = s.codePoints().toArray();
    StringBuilder cur = new StringBuilder();
    boolean startedUpper = false;
    int prev = -1;
    for (int i = 0; i < cps.length; i++) {
      int r = cps[i];
      if (!GoStrings.isLetter(r) && !GoStrings.isDigit(r)) {
        flush(cur, out);
        startedUpper = false;
        prev = -1;
        continue;
      }
      if (!cur.isEmpty()) {
        boolean split =
            (GoStrings.isLetter(prev) && GoStrings.isDigit(r))
                || (GoStrings.isDigit(prev) && GoStrings.isLetter(r))
                || (GoStrings.isLower(prev) && GoStrings.isUpper(r) && !startedUpper)
                || (GoStrings.isUpper(prev)
                    && GoStrings.isUpper(r)
                    && i + 1 < cps.length
                    && GoStrings.isLower(cps[i + 1]));
        if (split) {
          flush(cur, out);
          startedUpper = GoStrings.isUpper(r);
        }
      } else {
        startedUpper = GoStrings.isUpper(r);
      }
      cur.appendCodePoint(r);
      prev = r;
    }
    flush(cur, out);
    return out;
  }

  /** Distinct tokens in first-seen order. */
  static List<String> distinct(String text) {
    return List.copyOf(new LinkedHashSet<>(tokens(text)));
  }

  private static void flush(StringBuilder cur, List<String> out) {
    if (cur.isEmpty()) {
      return;
    }
    String t = GoStrings.toLower(cur.toString());
    cur.setLength(0);
    if (!CONNECTORS.contains(t)) {
      out.add(t);
    }
  }
}
