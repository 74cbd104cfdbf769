package dev.agentcompute.codemode.search;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.SearchResponse;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.binding.GoStrings;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.catalog.Entry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Relevance search over enabled capabilities: exact and prefix token matches weighted by field
 * (name 12, search terms 10, summary 5, description 2) and rarity (idf 1..7), eligibility by
 * matched-token count, exact-name hits first, packing under the result count and response-byte
 * bounds.
 */
public final class SearchIndex {

  public static final int MAX_QUERY_TOKENS = 16;
  static final int[] WEIGHTS = {12, 10, 5, 2};
  static final long EXACT = 100;
  static final long PREFIX = 72;

  private final Map<Entry, List<List<String>>> fields = new IdentityHashMap<>();

  public SearchIndex(Catalog catalog) {
    for (Entry e : catalog.entries()) {
      List<String> terms = new ArrayList<>();
      for (String t : e.searchTerms()) {
        terms.addAll(Tokenizer.tokens(t));
      }
      fields.put(
          e,
          List.of(
              dedupe(Tokenizer.tokens(e.name())),
              dedupe(terms),
              dedupe(Tokenizer.tokens(e.summary())),
              dedupe(Tokenizer.tokens(e.description()))));
    }
  }

  /** Query tokens after the byte and token-count checks; empty means "no results". */
  public static List<String> queryTokens(String query, long maxQueryBytes)
      throws CodeModeException {
    if (GoStrings.utf8Length(query) > maxQueryBytes) {
      throw CodeModeException.of(Failure.RESOURCE_LIMIT);
    }
    List<String> q = Tokenizer.distinct(query);
    if (q.size() > MAX_QUERY_TOKENS) {
      throw CodeModeException.of(Failure.RESOURCE_LIMIT);
    }
    return q;
  }

  /**
   * Ranks {@code visible} (a subset of the catalog) for the query tokens and packs the page that
   * starts {@code offset} candidates into the ranking. {@code truncated} says eligible candidates
   * remain after the page. A query of several clauses ({@link #clauses}) ranks each clause alone
   * and interleaves the rankings (ours; the original ranks the whole query at once).
   */
  public SearchResponse search(
      String query, List<String> q, List<Entry> visible, long maxResults, long offset) {
    if (q.isEmpty()) {
      return new SearchResponse(List.of(), false);
    }
    Map<String, Integer> df = new HashMap<>();
    for (Entry e : visible) {
      Set<String> all = new LinkedHashSet<>();
      for (List<String> f : fields.get(e)) {
        all.addAll(f);
      }
      for (String t : all) {
        df.merge(t, 1, Integer::sum);
      }
    }
    List<String> texts = new ArrayList<>();
    List<List<String>> tokens = new ArrayList<>();
    for (String clause : clauses(query)) {
      List<String> t = Tokenizer.distinct(clause);
      if (!t.isEmpty()) {
        texts.add(clause);
        tokens.add(t);
      }
    }
    List<Entry> ranked;
    if (tokens.size() <= 1) {
      ranked = rank(query, q, visible, df);
    } else {
      List<List<Entry>> each = new ArrayList<>();
      for (int i = 0; i < tokens.size(); i++) {
        each.add(rank(texts.get(i), tokens.get(i), visible, df));
      }
      ranked = interleave(each);
    }
    List<SearchResult> results = new ArrayList<>();
    long used = 12;
    boolean truncated = false;
    for (Entry r : ranked.subList((int) Math.min(offset, ranked.size()), ranked.size())) {
      if (results.size() == maxResults) {
        truncated = true;
        break;
      }
      long size = Catalog.compactResultSize(r);
      long comma = results.isEmpty() ? 0 : 1;
      if (used + comma + size + 20 > Catalog.MAX_RESPONSE_BYTES) {
        truncated = true;
        break;
      }
      used += comma + size;
      results.add(r.searchResult());
    }
    return new SearchResponse(results, truncated);
  }

  /**
   * The clauses of a query (ours): it is split at commas, semicolons, line breaks and the word
   * "then" (any case), so "create sandbox, list images and then run command" has three. A query
   * with one clause that has tokens is ranked whole, exactly as the original ranks it.
   */
  static List<String> clauses(String query) {
    return List.of(CLAUSE_SEPARATOR.split(query, -1));
  }

  private static final Pattern CLAUSE_SEPARATOR =
      Pattern.compile("[,;\\r\\n]|(?<![\\p{L}\\p{N}])(?i:then)(?![\\p{L}\\p{N}])");

  /** Each ranking's first, then each one's second, ..., a capability only where it first comes. */
  private static List<Entry> interleave(List<List<Entry>> rankings) {
    Set<Entry> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    List<Entry> out = new ArrayList<>();
    int longest = 0;
    for (List<Entry> r : rankings) {
      longest = Math.max(longest, r.size());
    }
    for (int rank = 0; rank < longest; rank++) {
      for (List<Entry> r : rankings) {
        if (rank < r.size() && seen.add(r.get(rank))) {
          out.add(r.get(rank));
        }
      }
    }
    return out;
  }

  /** The eligible candidates for one clause, best first (R33 to R35). */
  private List<Entry> rank(
      String query, List<String> q, List<Entry> visible, Map<String, Integer> df) {
    long n = visible.size();
    int required = q.size() == 1 ? 1 : q.size() == 2 ? 2 : (2 * q.size() + 2) / 3;
    String exactName = GoStrings.toLower(GoStrings.trimSpace(query));
    record Ranked(Entry entry, boolean exact, long score) {}
    List<Ranked> ranked = new ArrayList<>();
    for (Entry e : visible) {
      List<List<String>> doc = fields.get(e);
      long raw = 0;
      long matched = 0;
      for (String qt : q) {
        long best = 0;
        int qLen = qt.codePointCount(0, qt.length());
        for (int f = 0; f < 4; f++) {
          long bestQuality = 0;
          long bestIdf = 0;
          for (String dt : doc.get(f)) {
            long quality = dt.equals(qt) ? EXACT : (qLen >= 3 && dt.startsWith(qt)) ? PREFIX : 0;
            if (quality == 0) {
              continue;
            }
            long idf = 1 + (n - df.get(dt)) * 7 / n;
            if (quality > bestQuality || (quality == bestQuality && idf > bestIdf)) {
              bestQuality = quality;
              bestIdf = idf;
            }
          }
          best = Math.max(best, WEIGHTS[f] * bestIdf * bestQuality);
        }
        if (best > 0) {
          matched++;
          raw += best;
        }
      }
      if (matched >= required) {
        ranked.add(
            new Ranked(
                e,
                GoStrings.toLower(e.name()).equals(exactName),
                Long.divideUnsigned(raw * matched, q.size())));
      }
    }
    ranked.sort(
        (a, b) -> {
          if (a.exact() != b.exact()) {
            return a.exact() ? -1 : 1;
          }
          if (a.score() != b.score()) {
            return Long.compareUnsigned(b.score(), a.score());
          }
          return Catalog.compareBytes(a.entry().name(), b.entry().name());
        });
    return ranked.stream().map(Ranked::entry).toList();
  }

  private static List<String> dedupe(List<String> tokens) {
    return List.copyOf(new LinkedHashSet<>(tokens));
  }
}
