package dev.agentcompute.server;

import dev.agentcompute.codemode.Builder;
import dev.agentcompute.incus.IncusClient;

/**
 * Registers every capability the capabilities module provides. That module does not publish
 * registrations yet, so the catalogue is empty (which CodeMode accepts: search finds nothing,
 * execute runs programs without native calls).
 */
final class CapabilityCatalogue {
  private CapabilityCatalogue() {}

  /** Returns how many capabilities were registered. */
  static int register(Builder builder, LiveConfig live, IncusClient incus) {
    return 0;
  }
}
