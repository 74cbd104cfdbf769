package dev.agentcompute.codemode;

import java.util.List;

/**
 * Ranked results (never null) and whether a bound omitted at least one eligible capability.
 *
 * @param nextCursor the cursor of the next page when the page bounds cut eligible capabilities off
 *     (search again with the same query and this cursor); null otherwise
 */
public record SearchResponse(List<SearchResult> results, boolean truncated, String nextCursor) {

  public SearchResponse {
    results = results == null ? List.of() : List.copyOf(results);
  }

  /** A response without a next page. */
  public SearchResponse(List<SearchResult> results, boolean truncated) {
    this(results, truncated, null);
  }
}
