package dev.agentcompute.capabilities.model;

import java.time.Instant;
import java.util.Optional;

/**
 * A sandbox as its backend stores it (Incus: project config {@code user.agentcompute.*}), so
 * everything here survives a restart of the service.
 *
 * @param pinnedBy subject that pinned it, empty when not pinned
 * @param pinnedAt when it was pinned, {@code null} when not pinned
 * @param member cluster member of a bridge sandbox
 * @param stored what the platform read along with the sandbox (an Incus project's bridge
 *     reservations, a Mac sidecar), passed down the call so the platform does not read it again
 *     (docs/reference/exec-path.md); empty for a sandbox not read from its platform
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
    String member,
    Optional<Stored> stored) {

  /**
   * A platform's own record of a sandbox as read with it. Only reads use it: a call that writes the
   * record reads it afresh.
   */
  public interface Stored {}

  /** A sandbox with nothing stored alongside it. */
  public Sandbox(
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
    this(
        name,
        platform,
        createdAt,
        expiresAt,
        subject,
        pinned,
        pinnedBy,
        pinnedAt,
        networkKind,
        member,
        Optional.empty());
  }

  /** Pinned sandboxes are always live; others until their deadline. */
  public boolean isLive(Instant now) {
    return pinned || expiresAt.isAfter(now);
  }

  public Sandbox withExpiresAt(Instant value) {
    return new Sandbox(
        name,
        platform,
        createdAt,
        value,
        subject,
        pinned,
        pinnedBy,
        pinnedAt,
        networkKind,
        member,
        stored);
  }

  public Sandbox pinnedBy(String identity, Instant at) {
    return new Sandbox(
        name,
        platform,
        createdAt,
        expiresAt,
        subject,
        true,
        identity,
        at,
        networkKind,
        member,
        stored);
  }

  public Sandbox unpinned() {
    return new Sandbox(
        name,
        platform,
        createdAt,
        expiresAt,
        subject,
        false,
        "",
        null,
        networkKind,
        member,
        stored);
  }
}
