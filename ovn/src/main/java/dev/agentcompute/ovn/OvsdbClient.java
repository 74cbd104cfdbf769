package dev.agentcompute.ovn;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OVSDB (RFC 7047) client over TCP, a Unix socket or TLS. It keeps one connection open: a
 * supervisor thread (virtual) connects, reconnects with exponential backoff when the connection
 * drops (re-issuing every open monitor, whose listener then gets a fresh {@code initial} batch),
 * and probes an idle connection with {@code echo}. Requests made while disconnected fail at once
 * with {@link OvsdbConnectionException}; every request has the {@link
 * OvsdbOptions#requestTimeout()}. Thread-safe.
 */
public final class OvsdbClient implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(OvsdbClient.class.getName());
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final OvsdbEndpoint endpoint;
  private final OvsdbOptions options;
  private final Object stateLock = new Object();

  /** Open monitors by id; changed under stateLock, read lock-free by the reader thread. */
  private final Map<String, OvsdbMonitor> monitors = new ConcurrentHashMap<>();

  private final AtomicLong monitorIds = new AtomicLong();
  private final Thread supervisor;
  private volatile JsonRpcConnection current;
  private volatile JsonRpcConnection lastConnection;
  private volatile OvsdbConnectionException lastFailure;
  private volatile boolean closed;

  private OvsdbClient(OvsdbEndpoint endpoint, OvsdbOptions options) {
    this.endpoint = endpoint;
    this.options = options;
    this.supervisor =
        Thread.ofVirtual().name("ovsdb-supervisor " + endpoint).unstarted(this::supervise);
  }

  /** Connects, waiting up to the connect timeout; fails if the server cannot be reached. */
  public static OvsdbClient connect(OvsdbEndpoint endpoint) {
    return connect(endpoint, OvsdbOptions.defaults());
  }

  public static OvsdbClient connect(OvsdbEndpoint endpoint, OvsdbOptions options) {
    OvsdbClient client = start(endpoint, options);
    if (!client.awaitConnected(options.connectTimeout())) {
      OvsdbConnectionException cause = client.lastFailure;
      client.close();
      throw new OvsdbConnectionException(
          "cannot connect to ovsdb "
              + endpoint
              + " within "
              + options.connectTimeout().toMillis()
              + " ms"
              + (cause == null ? "" : ": " + cause.getMessage()),
          cause);
    }
    return client;
  }

  /** Starts connecting in the background and returns at once; see {@link #isConnected()}. */
  public static OvsdbClient start(OvsdbEndpoint endpoint, OvsdbOptions options) {
    OvsdbClient client = new OvsdbClient(endpoint, options);
    client.supervisor.start();
    return client;
  }

  public OvsdbEndpoint endpoint() {
    return endpoint;
  }

  public boolean isConnected() {
    JsonRpcConnection c = current;
    return c != null && c.isOpen();
  }

  /** Waits until connected; false if the time ran out or the client was closed. */
  public boolean awaitConnected(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (stateLock) {
      while (!isConnected() && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(stateLock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return isConnected();
    }
  }

  /** {@code list_dbs}: the databases the server holds. */
  public List<String> listDbs() {
    JsonNode result = call("list_dbs", JSON.arrayNode());
    List<String> names = new ArrayList<>();
    result.forEach(n -> names.add(n.asString()));
    return List.copyOf(names);
  }

  /**
   * {@code get_schema}: fails with {@link OvsdbRpcException} ({@code unknown database}) for a wrong
   * name.
   */
  public DatabaseSchema getSchema(String database) {
    JsonNode schema = call("get_schema", JSON.arrayNode().add(database));
    Map<String, List<String>> tables = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> table : schema.path("tables").properties()) {
      tables.put(table.getKey(), List.copyOf(table.getValue().path("columns").propertyNames()));
    }
    return new DatabaseSchema(
        schema.path("name").asString(""),
        schema.path("version").asString(""),
        tables,
        schema.toString());
  }

  /** {@code echo}: one round trip; fails if the server does not answer in time. */
  public void echo() {
    call("echo", JSON.arrayNode().add("agentcompute"));
  }

  /**
   * {@code transact}: runs the operations atomically. Fails with {@link OvsdbTransactionException}
   * (nothing was changed) if any operation or the commit failed.
   */
  public List<OperationResult> transact(String database, Operation... operations) {
    return transact(database, Arrays.asList(operations));
  }

  public List<OperationResult> transact(String database, List<Operation> operations) {
    return await(transactAsync(database, operations), "transact");
  }

  /**
   * Asynchronous {@code transact}. Cancelling the future sends the RFC 7047 {@code cancel}
   * notification, so a transaction blocked in a {@code wait} operation is abandoned by the server.
   */
  public CompletableFuture<List<OperationResult>> transactAsync(
      String database, List<Operation> operations) {
    List<Operation> ops = List.copyOf(operations);
    if (ops.isEmpty()) {
      throw new IllegalArgumentException("a transaction needs at least one operation");
    }
    ArrayNode params = JSON.arrayNode().add(database);
    ops.forEach(op -> params.add(OvsdbCodec.encode(op)));
    JsonRpcConnection connection = connection();
    JsonRpcConnection.Call call = connection.request("transact", params);
    CompletableFuture<List<OperationResult>> results =
        call.result().thenApply(result -> OvsdbCodec.decodeTransactResult(ops, result));
    results.whenComplete(
        (r, e) -> {
          if (e instanceof CancellationException && !call.result().isDone()) {
            call.result().cancel(false);
            if (connection.isOpen()) {
              try {
                connection.notify("cancel", JSON.arrayNode().add(call.id()));
              } catch (OvsdbConnectionException ignored) {
                // the connection went away: nothing left to cancel
              }
            }
          }
        });
    return results;
  }

  /**
   * {@code monitor}: registers a listener for changes to the given tables (column lists may be
   * empty for all columns). Returns once the initial contents were delivered to the listener.
   */
  public OvsdbMonitor monitor(
      String database, Map<String, ? extends Collection<String>> tables, MonitorListener listener) {
    OvsdbMonitor monitor = newMonitor(database, tables, listener);
    CompletableFuture<JsonNode> first;
    synchronized (stateLock) {
      JsonRpcConnection connection = connection();
      monitors.put(monitor.id(), monitor);
      first = issue(monitor, connection);
    }
    try {
      await(first, "monitor");
    } catch (RuntimeException e) {
      synchronized (stateLock) {
        monitors.remove(monitor.id());
      }
      throw e;
    }
    return monitor;
  }

  /** Registers a monitor without requiring a connection now: it is issued on every (re)connect. */
  OvsdbMonitor register(
      String database, Map<String, ? extends Collection<String>> tables, MonitorListener listener) {
    OvsdbMonitor monitor = newMonitor(database, tables, listener);
    synchronized (stateLock) {
      monitors.put(monitor.id(), monitor);
      JsonRpcConnection connection = current;
      if (connection != null && connection.isOpen()) {
        issue(monitor, connection);
      }
    }
    return monitor;
  }

  private OvsdbMonitor newMonitor(
      String database, Map<String, ? extends Collection<String>> tables, MonitorListener listener) {
    if (tables.isEmpty()) {
      throw new IllegalArgumentException("a monitor needs at least one table");
    }
    Map<String, List<String>> copy = new LinkedHashMap<>();
    tables.forEach((table, columns) -> copy.put(table, List.copyOf(columns)));
    return new OvsdbMonitor(this, "m" + monitorIds.incrementAndGet(), database, copy, listener);
  }

  /** Sends the monitor request; its reply reaches the listener on the reader thread. */
  private CompletableFuture<JsonNode> issue(OvsdbMonitor monitor, JsonRpcConnection connection) {
    ObjectNode requests = JSON.objectNode();
    monitor
        .tables()
        .forEach(
            (table, columns) -> {
              ObjectNode request = requests.putObject(table);
              if (!columns.isEmpty()) {
                ArrayNode names = request.putArray("columns");
                columns.forEach(names::add);
              }
            });
    ArrayNode params = JSON.arrayNode().add(monitor.database()).add(monitor.id()).add(requests);
    return connection
        .request(
            "monitor",
            params,
            result -> monitor.listener().onUpdate(OvsdbCodec.decodeTableUpdates(result, true)))
        .result();
  }

  void cancel(OvsdbMonitor monitor) {
    synchronized (stateLock) {
      if (monitors.remove(monitor.id()) == null) {
        return;
      }
    }
    JsonRpcConnection connection = current;
    if (connection != null && connection.isOpen()) {
      try {
        await(
            connection.request("monitor_cancel", JSON.arrayNode().add(monitor.id())).result(),
            "monitor_cancel");
      } catch (OvsdbException e) {
        LOG.log(
            System.Logger.Level.DEBUG,
            "monitor_cancel of {0} on {1}: {2}",
            monitor.id(),
            endpoint,
            e.getMessage());
      }
    }
  }

  private void onNotification(JsonRpcConnection connection, String method, JsonNode params) {
    if (!method.equals("update")) {
      LOG.log(
          System.Logger.Level.DEBUG, "ignoring ovsdb notification {0} from {1}", method, endpoint);
      return;
    }
    OvsdbMonitor monitor = monitors.get(params.path(0).asString(""));
    if (monitor != null) {
      monitor.listener().onUpdate(OvsdbCodec.decodeTableUpdates(params.path(1), false));
    }
  }

  // ---------------------------------------------------------------- requests

  private JsonRpcConnection connection() {
    if (closed) {
      throw new OvsdbConnectionException("the ovsdb client for " + endpoint + " is closed");
    }
    JsonRpcConnection connection = current;
    if (connection == null || !connection.isOpen()) {
      OvsdbConnectionException cause = lastFailure;
      throw new OvsdbConnectionException(
          "not connected to ovsdb "
              + endpoint
              + (cause == null ? "" : " (" + cause.getMessage() + ")")
              + "; reconnecting in the background",
          cause);
    }
    return connection;
  }

  private JsonNode call(String method, ArrayNode params) {
    return await(connection().request(method, params).result(), method);
  }

  private <T> T await(CompletableFuture<T> future, String what) {
    return Replies.await(future, options.requestTimeout(), "ovsdb " + what + " on " + endpoint);
  }

  // ---------------------------------------------------------------- connection supervision

  private void supervise() {
    Backoff backoff = new Backoff(options.reconnectMin(), options.reconnectMax());
    IdleProbe idle = new IdleProbe(endpoint, options.probeInterval());
    while (!closed) {
      JsonRpcConnection connection;
      try {
        connection =
            JsonRpcConnection.start(
                Transport.open(endpoint, options.connectTimeout()),
                endpoint.toString(),
                this::onNotification);
      } catch (IOException | RuntimeException e) {
        lastFailure =
            new OvsdbConnectionException(
                "cannot connect to ovsdb " + endpoint + ": " + e.getMessage(), e);
        if (!backoff.pause() || closed) {
          break;
        }
        continue;
      }
      synchronized (stateLock) {
        if (closed) {
          connection.close();
          break;
        }
        current = connection;
        lastConnection = connection;
        monitors
            .values()
            .forEach(
                m ->
                    issue(m, connection)
                        .whenComplete(
                            (r, e) -> {
                              if (e != null && !(e instanceof OvsdbConnectionException)) {
                                LOG.log(
                                    System.Logger.Level.WARNING,
                                    "re-issuing monitor "
                                        + m.id()
                                        + " on "
                                        + endpoint
                                        + " failed; its listener gets no updates until the next reconnect",
                                    e);
                              }
                            }));
        stateLock.notifyAll();
      }
      long connectedAt = System.nanoTime();
      OvsdbConnectionException reason = idle.keepAlive(connection);
      List<OvsdbMonitor> affected;
      synchronized (stateLock) {
        current = null;
        affected = List.copyOf(monitors.values());
      }
      lastFailure = reason;
      affected.forEach(m -> notifyLost(m, reason));
      if (closed) {
        break;
      }
      LOG.log(System.Logger.Level.WARNING, "{0}; reconnecting", reason.getMessage());
      if (System.nanoTime() - connectedAt > options.reconnectMax().toNanos()) {
        backoff.reset(); // it was healthy for a while: start over
      }
      if (!backoff.pause() || closed) {
        break;
      }
    }
  }

  private static void notifyLost(OvsdbMonitor monitor, OvsdbConnectionException reason) {
    try {
      monitor.listener().onConnectionLost(reason);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "monitor listener failed on connection loss", e);
    }
  }

  /** Closes the connection and stops the supervisor; monitors end with it. Idempotent. */
  @Override
  public void close() {
    closed = true;
    supervisor.interrupt();
    JsonRpcConnection connection;
    synchronized (stateLock) {
      connection = current;
      current = null;
      stateLock.notifyAll();
    }
    if (connection != null) {
      connection.close();
    }
    try {
      // bounded, but generous: on a loaded machine a thread may need seconds to be scheduled,
      // and close() promises that no thread of this client outlives it
      supervisor.join(options.connectTimeout().toMillis() + 5000);
      // the supervisor may have opened a newer connection between our read of current and its
      // exit: that one is lastConnection, and it is closed by the supervisor's closed check
      JsonRpcConnection last = lastConnection;
      if (last != null && last != connection) {
        last.close();
        last.awaitReaderExit(5000);
      }
      if (connection != null) {
        connection.awaitReaderExit(5000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * True once close() has stopped the supervisor and the last reader thread (tests check for
   * leaks).
   */
  boolean threadsStopped() {
    JsonRpcConnection connection = lastConnection;
    return !supervisor.isAlive() && (connection == null || !connection.readerAlive());
  }

  @Override
  public String toString() {
    return "OvsdbClient[" + endpoint + (isConnected() ? ", connected]" : ", disconnected]");
  }
}
