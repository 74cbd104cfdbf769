package dev.agentcompute.codemode;

import java.util.List;

/** Ranked results (never null) and whether a bound omitted at least one eligible capability. */
public record SearchResponse(List<SearchResult> results, boolean truncated) {

    public SearchResponse {
        results = results == null ? List.of() : List.copyOf(results);
    }
}
