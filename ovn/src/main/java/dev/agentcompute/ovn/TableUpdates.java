package dev.agentcompute.ovn;

import java.util.List;
import java.util.Map;

/**
 * One batch of monitor changes, per table. {@code initial} is true for the monitor's first answer,
 * including the one re-issued after a reconnect: it is then the whole current content of the
 * monitored tables and replaces everything the listener knew.
 */
public record TableUpdates(boolean initial, Map<String, List<RowUpdate>> tables) {
  public TableUpdates {
    tables = Map.copyOf(tables);
  }

  public List<RowUpdate> table(String name) {
    return tables.getOrDefault(name, List.of());
  }
}
