package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** What {@code instance.start}, {@code instance.stop} and {@code instance.restart} ask for. */
public enum InstanceAction {
  START,
  STOP,
  RESTART;

  /** The action's name in the Incus state API and in logs. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the instance runs once the action is done. */
  public boolean leavesRunning() {
    return this != STOP;
  }
}
