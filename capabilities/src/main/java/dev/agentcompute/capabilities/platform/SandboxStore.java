package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.Sandbox;
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
}
