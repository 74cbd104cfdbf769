package dev.agentcompute.capabilities.model;

import java.time.Instant;

/**
 * A sandbox as its backend stores it (Incus: project config {@code user.agentcompute.*}), so
 * everything here survives a restart of the service.
 *
 * @param pinnedBy subject that pinned it, empty when not pinned
 * @param pinnedAt when it was pinned, {@code null} when not pinned
 * @param member cluster member of a bridge sandbox
 */
public record Sandbox(
    String name,
    String platform,
    Instant createdAt,
    Instant expiresAt,
    String subject,
    boolean pinned,
    String pinnedBy,
    Instant pinnedAt,
    NetworkKind networkKind,
    String member) {

  /** Pinned sandboxes are always live; others until their deadline. */
  public boolean isLive(Instant now) {
    return pinned || expiresAt.isAfter(now);
  }

  public Sandbox withExpiresAt(Instant value) {
    return new Sandbox(
        name, platform, createdAt, value, subject, pinned, pinnedBy, pinnedAt, networkKind, member);
  }

  public Sandbox pinnedBy(String identity, Instant at) {
    return new Sandbox(
        name, platform, createdAt, expiresAt, subject, true, identity, at, networkKind, member);
  }

  public Sandbox unpinned() {
    return new Sandbox(
        name, platform, createdAt, expiresAt, subject, false, "", null, networkKind, member);
  }
}
