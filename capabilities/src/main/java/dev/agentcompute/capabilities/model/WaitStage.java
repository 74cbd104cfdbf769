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

  /** The stage named {@code until}; any other word is refused with the stages there are. */
  public static WaitStage parse(String until) {
    for (WaitStage stage : values()) {
      if (stage.wireName().equals(until)) {
        return stage;
      }
    }
    throw Errors.of("until \"%s\" is not a stage: use one of %s", until, names());
  }

  /** The stages' wire names, comma-separated, in the order an instance reaches them. */
  public static String names() {
    return String.join(", ", java.util.Arrays.stream(values()).map(WaitStage::wireName).toList());
  }
}
