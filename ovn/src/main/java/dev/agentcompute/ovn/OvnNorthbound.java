package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The front door to an OVN_Northbound database: typed reads of the tables agentcompute uses, served
 * from a monitor-backed cache that follows every change (and resynchronises after a reconnect),
 * plus raw {@link #transact} for writes. {@link #isConnected()} is the readiness check: connected
 * and the cache holds the server's current content.
 */
public final class OvnNorthbound implements AutoCloseable {
  public static final String DATABASE = "OVN_Northbound";

  private final OvsdbClient client;
  private final NorthboundCache cache;

  private OvnNorthbound(OvsdbClient client) {
    this.client = client;
    Map<String, List<String>> tables = new LinkedHashMap<>();
    NbTable.ALL.forEach(t -> tables.put(t.name(), List.of()));
    this.cache = new NorthboundCache(tables.keySet());
    client.register(DATABASE, tables, cache);
  }

  /** Connects and waits (up to the connect timeout) until the cache is filled. */
  public static OvnNorthbound connect(OvsdbEndpoint endpoint) {
    return connect(endpoint, OvsdbOptions.defaults());
  }

  public static OvnNorthbound connect(OvsdbEndpoint endpoint, OvsdbOptions options) {
    OvnNorthbound northbound = start(endpoint, options);
    if (!northbound.awaitReady(options.connectTimeout().plus(options.requestTimeout()))) {
      northbound.close();
      // a plain client gives the precise reason (unreachable, wrong database, ...)
      try (OvsdbClient probe = OvsdbClient.connect(endpoint, options)) {
        if (!probe.listDbs().contains(DATABASE)) {
          throw new OvsdbConnectionException(
              "ovsdb "
                  + endpoint
                  + " has no "
                  + DATABASE
                  + " database (it has "
                  + probe.listDbs()
                  + ")");
        }
      }
      throw new OvsdbConnectionException(
          "ovsdb " + endpoint + " did not deliver the " + DATABASE + " contents in time");
    }
    return northbound;
  }

  /**
   * Starts connecting in the background; reads return empty results until {@link #isConnected()}.
   */
  public static OvnNorthbound start(OvsdbEndpoint endpoint, OvsdbOptions options) {
    return new OvnNorthbound(OvsdbClient.start(endpoint, options));
  }

  /** Connected, and the cache reflects the server (readiness). */
  public boolean isConnected() {
    return client.isConnected() && cache.synced();
  }

  public boolean awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isConnected()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** Every row of a table, ordered by name (then UUID). */
  public <T extends NbRecord> List<T> list(NbTable<T> table) {
    Comparator<T> byName = Comparator.comparing(r -> table.nameOf(r).orElse(""));
    return cache.rows(table.name()).values().stream()
        .map(table::read)
        .sorted(byName.thenComparing(NbRecord::uuid))
        .toList();
  }

  public <T extends NbRecord> Optional<T> get(NbTable<T> table, Uuid uuid) {
    return Optional.ofNullable(cache.rows(table.name()).get(uuid)).map(table::read);
  }

  /**
   * The row with this name. OVN does not force names to be unique; with duplicates this returns the
   * one with the smallest UUID. NAT rows have no name and never match.
   */
  public <T extends NbRecord> Optional<T> byName(NbTable<T> table, String name) {
    return list(table).stream()
        .filter(r -> table.nameOf(r).filter(name::equals).isPresent())
        .findFirst();
  }

  /** Runs a transaction on OVN_Northbound; the cache sees its effect through the monitor. */
  public List<OperationResult> transact(Operation... operations) {
    return client.transact(DATABASE, operations);
  }

  /** The underlying client, for other requests (monitors of more tables, select, schema). */
  public OvsdbClient client() {
    return client;
  }

  @Override
  public void close() {
    client.close();
  }
}
