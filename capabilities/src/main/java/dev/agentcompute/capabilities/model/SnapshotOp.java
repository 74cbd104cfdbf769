package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** The three snapshot mutations, each its own capability. */
public enum SnapshotOp {
  CREATE,
  RESTORE,
  DELETE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
