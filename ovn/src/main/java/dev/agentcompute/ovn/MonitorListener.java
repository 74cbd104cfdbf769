package dev.agentcompute.ovn;

/**
 * Receives a monitor's updates, in order, on the connection's reader thread: keep it quick and do
 * not call the client synchronously from it.
 */
public interface MonitorListener {
  void onUpdate(TableUpdates updates);

  /**
   * The connection dropped; updates may be missed until the monitor is re-issued after the
   * reconnect, which delivers a fresh {@code initial} batch.
   */
  default void onConnectionLost(OvsdbConnectionException cause) {}
}
