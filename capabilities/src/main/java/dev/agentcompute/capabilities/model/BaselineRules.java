package dev.agentcompute.capabilities.model;

import java.util.List;

/**
 * The ids of the baseline drops every OVN network carries, one per protected range
 * (docs/reference/capabilities.md#netacladd-netaclremove): the first two are the original's names,
 * further ranges count on. No call may remove them.
 */
public final class BaselineRules {
  /** The drop of the management range and the drop of the OOB range. */
  public static final List<String> IDS = List.of("baseline-egress-mgmt", "baseline-egress-oob");

  private BaselineRules() {}

  /** The id of the baseline drop of the {@code index}-th protected range. */
  public static String id(int index) {
    return index < IDS.size() ? IDS.get(index) : "baseline-egress-" + index;
  }

  public static boolean isBaseline(String rule) {
    return IDS.contains(rule);
  }
}
