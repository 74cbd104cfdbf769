package dev.agentcompute.capabilities.model;

import java.util.Locale;

/** Why a background process ended (docs/capabilities.md#background-processes). */
public enum ProcessEnd {
  /** It exited by itself; its exit code says how. */
  EXITED,
  /** A signal ended it (instance.process.kill, or anything in the instance). */
  KILLED,
  /** The kernel's OOM killer ended it: the instance's memory cgroup counted a kill meanwhile. */
  OOM_KILLED,
  /** Its own {@code timeout_seconds} passed and the supervisor killed it. */
  TIMED_OUT,
  /** Its supervisor is gone without recording an end (the instance was restarted). */
  LOST;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
