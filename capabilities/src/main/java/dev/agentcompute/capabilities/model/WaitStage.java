package dev.agentcompute.capabilities.model;

import java.util.Locale;

/**
 * The readiness stages {@code instance.wait} knows (docs/reference/capabilities.md#instancewait).
 */
public enum WaitStage {
  RUNNING,
  AGENT,
  NETWORK,
  /**
   * The agent stage, then the Cua Driver daemon answers {@code status}
   * (docs/reference/capabilities.md#instancewait).
   */
  DESKTOP,
  STOPPED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The stage named {@code until}; any other word is {@code until "<u>" is not available yet}. */
  public static WaitStage parse(String until) {
    for (WaitStage stage : values()) {
      if (stage.wireName().equals(until)) {
        return stage;
      }
    }
    throw Errors.of("until \"%s\" is not available yet", until);
  }
}
