package dev.agentcompute.capabilities.reaper;

import dev.agentcompute.capabilities.model.Sandbox;

/**
 * Hears what the reaper does, for the host's audit trail and metrics: a sandbox found past its
 * expiry, then deleted or failed to delete (the next scan retries it). Called on the reaper's
 * thread; keep it short. What it throws is logged and ignored.
 */
public interface ReapListener {
  ReapListener NONE = new ReapListener() {};

  /** {@code sandbox} is past its {@code expires_at} and not pinned: the reaper deletes it now. */
  default void expired(Sandbox sandbox) {}

  /** The reaper deleted {@code sandbox}. */
  default void deleted(Sandbox sandbox) {}

  /** Deleting {@code sandbox} failed; the next scan tries again. */
  default void failed(Sandbox sandbox, RuntimeException failure) {}
}
