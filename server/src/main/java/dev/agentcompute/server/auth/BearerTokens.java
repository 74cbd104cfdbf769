package dev.agentcompute.server.auth;

import dev.agentcompute.server.config.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * The identities allowed over HTTP, each known only by the SHA-256 digest of its token. Tokens
 * themselves are never kept, logged, or put into an error message. {@link #replaceWith} swaps the
 * whole set at once (a reloaded credential file): every later request is checked against it.
 */
public final class BearerTokens {
  /** One identity and the digest of its token. */
  record Entry(String identity, byte[] digest) {}

  private volatile List<Entry> entries;

  BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * From now on accepts exactly the tokens of {@code next}; returns the identities whose token no
   * longer works (the identity is gone, or its token changed), whose sessions must end.
   */
  public synchronized java.util.Set<String> replaceWith(BearerTokens next) {
    List<Entry> before = entries;
    List<Entry> after = next.entries;
    java.util.Set<String> revoked = new java.util.TreeSet<>();
    for (Entry old : before) {
      boolean kept =
          after.stream()
              .anyMatch(
                  e ->
                      e.identity().equals(old.identity())
                          && MessageDigest.isEqual(e.digest(), old.digest()));
      if (!kept) {
        revoked.add(old.identity());
      }
    }
    entries = after;
    return revoked;
  }

  /** The identity names, in file order (safe to log). */
  public List<String> identities() {
    return entries.stream().map(Entry::identity).toList();
  }

  /**
   * The identity whose token is {@code presented}. Every entry is compared, in constant time per
   * entry, so the time taken does not depend on which entry (if any) matched.
   */
  public Optional<String> identify(String presented) {
    byte[] digest = Digests.sha256(presented.getBytes(StandardCharsets.UTF_8));
    String match = null;
    for (Entry entry : this.entries) {
      if (MessageDigest.isEqual(digest, entry.digest()) && match == null) {
        match = entry.identity();
      }
    }
    return Optional.ofNullable(match);
  }
}
