package dev.agentcompute.capabilities.incus;

import java.util.Locale;

/**
 * One cluster member as placement sees it: its status and {@code scheduler.instance} from {@code
 * GET /1.0/cluster/members}, its free memory and one-minute load from its {@code /state} (zero for
 * a member whose state was not read: an offline one, or any member when a host is explicit).
 *
 * @param schedulerInstance the member's {@code scheduler.instance}: {@code all} (Incus's default,
 *     also when unset), {@code manual} or {@code group}
 */
record MemberLoad(
    String name, String status, String schedulerInstance, long freeRam, double load1) {
  static final String ONLINE = "Online";

  MemberLoad {
    schedulerInstance =
        schedulerInstance == null || schedulerInstance.isEmpty() ? "all" : schedulerInstance;
  }

  boolean online() {
    return ONLINE.equalsIgnoreCase(status);
  }

  /** Whether automatic placement may choose it: {@code manual} and {@code group} opt out. */
  boolean takesAutomaticPlacement() {
    String s = schedulerInstance.toLowerCase(Locale.ROOT);
    return !s.equals("manual") && !s.equals("group");
  }

  /** How a refusal lists it: {@code accl-m1 (Offline, scheduler.instance all)}. */
  String describe() {
    return name + " (" + status + ", scheduler.instance " + schedulerInstance + ")";
  }
}
