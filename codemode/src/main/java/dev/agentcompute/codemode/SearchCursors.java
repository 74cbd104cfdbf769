package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.binding.GoStrings;
import dev.agentcompute.codemode.execution.Access;
import dev.agentcompute.codemode.tokens.TokenKind;
import dev.agentcompute.codemode.tokens.TokenSigner;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;

/**
 * search_api page cursors (docs/reference/policy.md#search-cursors, #tokens): a search token binds
 * the caller's scope key, the catalogue generation, the normalised query ({@code q}) and the offset
 * of the next page ({@code o}). Every failure reads {@code invalid cursor}.
 */
final class SearchCursors {

  private final TokenSigner signer;
  private final InstantSource clock;
  private final String generation;
  private final Policy policy;

  SearchCursors(TokenSigner signer, InstantSource clock, String generation, Policy policy) {
    this.signer = signer;
    this.clock = clock;
    this.generation = generation;
    this.policy = policy;
  }

  /** The offset a cursor resumes at; 0 without a cursor. */
  long offset(Context ctx, Subject subject, String query, List<String> tokens, String cursor)
      throws CodeModeException {
    if (cursor == null || cursor.isEmpty()) {
      return 0;
    }
    Map<String, Object> p =
        signer.verifyOr(
            Failure.INVALID_CURSOR,
            TokenKind.SEARCH,
            cursor,
            () -> policy.scopeKey(ctx, subject),
            generation,
            clock.instant());
    if (!queryDigest(query, tokens).equals(p.get("q"))
        || !(p.get("o") instanceof Long o)
        || o < 0) {
      throw CodeModeException.of(Failure.INVALID_CURSOR);
    }
    return o;
  }

  /** The cursor of the page that starts at {@code offset}. */
  String next(Context ctx, Subject subject, String query, List<String> tokens, long offset)
      throws CodeModeException {
    String scopeKey = Access.scopeKey(policy, ctx, subject);
    return signer
        .sign(
            TokenKind.SEARCH,
            scopeKey,
            generation,
            clock.instant(),
            Map.of("q", queryDigest(query, tokens), "o", offset))
        .token();
  }

  /**
   * {@code q}: the query as ranking sees it, its tokens and its exact-name form (two queries with
   * the same tokens can rank an exact name first or not), so a cursor resumes only the ranking it
   * came from.
   */
  private static String queryDigest(String query, List<String> tokens) {
    return TokenSigner.digest(
        GoStrings.toLower(GoStrings.trimSpace(query)) + "\n" + String.join(" ", tokens));
  }
}
