package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.Sandbox;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where a platform keeps its sandboxes. Every piece of sandbox state (expiry, pin, owner) lives in
 * the platform itself, so a new service over the same platform loses nothing. Failures are {@link
 * dev.agentcompute.capabilities.model.BackendException}s.
 */
public interface SandboxStore {
  Optional<Sandbox> find(String name);

  List<Sandbox> list();

  /**
   * Creates the sandbox with its default network; a {@code CONFLICT} backend failure if it exists.
   */
  void create(Sandbox sandbox);

  /** Persists the expiry and pin state of an existing sandbox. */
  void write(Sandbox sandbox);

  /**
   * Changes a sandbox's expiry and pin state as one step against the stored record: reads it,
   * applies {@code change} (which may refuse by throwing, e.g. an expired sandbox), and writes the
   * result unless it is unchanged. Platforms that several servers share override this with an
   * optimistic write (Incus: If-Match with the project's ETag, re-read and re-applied on 412), so
   * two servers never lose each other's updates; this default is for a single writer.
   *
   * @return the record as stored, or empty when the sandbox does not exist
   */
  default Optional<Sandbox> update(String name, UnaryOperator<Sandbox> change) {
    Optional<Sandbox> current = find(name);
    if (current.isEmpty()) {
      return current;
    }
    Sandbox changed = change.apply(current.get());
    if (!changed.equals(current.get())) {
      write(changed);
    }
    return Optional.of(changed);
  }

  /**
   * Deletes everything of a sandbox in dependency order; {@code NOT_FOUND} when nothing existed.
   */
  void delete(String name);

  /**
   * The first half of a deletion that finishes in the background: marks the sandbox as being
   * deleted (from then on {@link #find} and {@link #list} no longer show it, while its name stays
   * taken) and makes it unreachable (its instances stopped). {@link #delete} does the rest, and the
   * reaper finishes what a stopped server left (see {@link #deleting}). False when this platform
   * has no such half (then {@link #delete} does it all, on the caller's path).
   */
  default boolean retire(String name) {
    return false;
  }

  /** Sandboxes marked by {@link #retire} before {@code before} that still exist. */
  default List<String> deleting(Instant before) {
    return List.of();
  }

  /** Whether a sandbox of this name is marked by {@link #retire} and not gone yet. */
  default boolean isDeleting(String name) {
    return false;
  }
}
