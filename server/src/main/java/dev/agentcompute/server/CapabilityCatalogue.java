package dev.agentcompute.server;

import dev.agentcompute.capabilities.CodeModeRegistration;
import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.codemode.Builder;

/** Registers every capability the capabilities module provides with the CodeMode builder. */
final class CapabilityCatalogue {
  private CapabilityCatalogue() {}

  /** Returns how many capabilities were registered. */
  static int register(Builder builder, ComputeRuntime compute) {
    var definitions = compute.capabilities();
    CodeModeRegistration.register(builder, definitions);
    return definitions.size();
  }
}
