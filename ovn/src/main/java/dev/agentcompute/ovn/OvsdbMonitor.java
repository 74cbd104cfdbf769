package dev.agentcompute.ovn;

import java.util.List;
import java.util.Map;

/**
 * A registered {@code monitor}: the client re-issues it after every reconnect until it is closed.
 * Closing sends {@code monitor_cancel} when connected.
 */
public final class OvsdbMonitor implements AutoCloseable {
  private final OvsdbClient client;
  private final String id;
  private final String database;
  private final Map<String, List<String>> tables;
  private final MonitorListener listener;

  OvsdbMonitor(
      OvsdbClient client,
      String id,
      String database,
      Map<String, List<String>> tables,
      MonitorListener listener) {
    this.client = client;
    this.id = id;
    this.database = database;
    this.tables = Map.copyOf(tables);
    this.listener = listener;
  }

  /** The monitor's JSON-RPC id (a string). */
  public String id() {
    return id;
  }

  public String database() {
    return database;
  }

  /** Monitored tables and their columns (empty list = all columns). */
  public Map<String, List<String>> tables() {
    return tables;
  }

  MonitorListener listener() {
    return listener;
  }

  @Override
  public void close() {
    client.cancel(this);
  }
}
