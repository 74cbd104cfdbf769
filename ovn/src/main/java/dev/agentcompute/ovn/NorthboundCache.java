package dev.agentcompute.ovn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The monitored OVN_Northbound rows, kept current by one monitor. Written only by the connection's
 * reader thread; readers see whole immutable snapshots.
 */
final class NorthboundCache implements MonitorListener {
  private final Set<String> tableNames;
  private volatile Map<String, Map<Uuid, Row>> tables = Map.of();
  private volatile boolean synced;

  NorthboundCache(Set<String> tableNames) {
    this.tableNames = Set.copyOf(tableNames);
  }

  @Override
  public void onUpdate(TableUpdates updates) {
    Map<String, Map<Uuid, Row>> next = new HashMap<>(updates.initial() ? Map.of() : tables);
    if (updates.initial()) {
      tableNames.forEach(name -> next.put(name, Map.of()));
    }
    updates
        .tables()
        .forEach((table, rows) -> next.put(table, apply(next.getOrDefault(table, Map.of()), rows)));
    tables = Map.copyOf(next);
    if (updates.initial()) {
      synced = true;
    }
  }

  private static Map<Uuid, Row> apply(Map<Uuid, Row> before, List<RowUpdate> changes) {
    Map<Uuid, Row> rows = new HashMap<>(before);
    for (RowUpdate change : changes) {
      change
          .after()
          .ifPresentOrElse(row -> rows.put(change.uuid(), row), () -> rows.remove(change.uuid()));
    }
    return Map.copyOf(rows);
  }

  @Override
  public void onConnectionLost(OvsdbConnectionException cause) {
    synced = false;
  }

  boolean synced() {
    return synced;
  }

  Map<Uuid, Row> rows(String table) {
    return tables.getOrDefault(table, Map.of());
  }
}
