package dev.agentcompute.ovn;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON-RPC 1.0 session over one {@link Transport} (RFC 7047 §4): numbered requests matched to
 * responses, server {@code echo} requests answered, notifications handed to a handler. One reader
 * thread (virtual) per connection; it ends when the connection closes.
 */
final class JsonRpcConnection implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(JsonRpcConnection.class.getName());

  /** OVSDB sends JSON values back to back on one stream, so a value may be followed by more. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** Called on the reader thread for every notification (a request without id). */
  interface NotificationHandler {
    void onNotification(JsonRpcConnection connection, String method, JsonNode params);
  }

  /** {@code inReader} sees a successful result on the reader thread, before later messages. */
  private record Pending(
      String method, CompletableFuture<JsonNode> result, Consumer<JsonNode> inReader) {}

  /** A request in flight: its JSON-RPC id and its future result. */
  record Call(long id, CompletableFuture<JsonNode> result) {}

  private final Transport transport;
  private final String peer;
  private final NotificationHandler handler;
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private final Object writeLock = new Object();
  private final CompletableFuture<OvsdbConnectionException> closed = new CompletableFuture<>();
  private volatile long lastReceivedNanos = System.nanoTime();
  private final Thread reader;

  private JsonRpcConnection(Transport transport, String peer, NotificationHandler handler) {
    this.transport = transport;
    this.peer = peer;
    this.handler = handler;
    this.reader = Thread.ofVirtual().name("ovsdb-reader " + peer).unstarted(this::readLoop);
  }

  static JsonRpcConnection start(Transport transport, String peer, NotificationHandler handler) {
    JsonRpcConnection connection = new JsonRpcConnection(transport, peer, handler);
    connection.reader.start();
    return connection;
  }

  String peer() {
    return peer;
  }

  boolean isOpen() {
    return !closed.isDone();
  }

  /** Completes (with the reason) once the connection is closed, by either side. */
  CompletableFuture<OvsdbConnectionException> closedFuture() {
    return closed;
  }

  long nanosSinceLastReceive() {
    return System.nanoTime() - lastReceivedNanos;
  }

  /**
   * Sends a request; the future completes with the {@code result}, or exceptionally with an {@link
   * OvsdbRpcException} (server error) or {@link OvsdbConnectionException}. Cancelling the future
   * forgets the request (a late answer is dropped).
   */
  Call request(String method, ArrayNode params) {
    return request(method, params, r -> {});
  }

  /**
   * As {@link #request(String, ArrayNode)}; {@code inReader} runs on the reader thread with the
   * result before any later message is handled (monitor replies must reach their listener before
   * the updates that follow them).
   */
  Call request(String method, ArrayNode params, Consumer<JsonNode> inReader) {
    long id = nextId.getAndIncrement();
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    pending.put(id, new Pending(method, result, inReader));
    result.whenComplete((r, e) -> pending.remove(id));
    if (!isOpen()) {
      result.completeExceptionally(closed.join());
      return new Call(id, result);
    }
    ObjectNode message = JSON.objectNode();
    message.put("method", method).set("params", params);
    message.put("id", id);
    try {
      send(message);
    } catch (OvsdbConnectionException e) {
      result.completeExceptionally(e);
    }
    return new Call(id, result);
  }

  void notify(String method, ArrayNode params) {
    ObjectNode message = JSON.objectNode();
    message.put("method", method).set("params", params);
    message.putNull("id");
    send(message);
  }

  private void send(ObjectNode message) {
    byte[] bytes = MAPPER.writeValueAsBytes(message);
    synchronized (writeLock) {
      try {
        OutputStream out = transport.output();
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        OvsdbConnectionException failure =
            new OvsdbConnectionException(
                "cannot write to ovsdb " + peer + ": " + e.getMessage(), e);
        close(failure);
        throw failure;
      }
    }
  }

  private void readLoop() {
    OvsdbConnectionException reason;
    try (JsonParser parser = MAPPER.createParser(transport.input())) {
      while (parser.nextToken() != null) {
        JsonNode message = MAPPER.readTree(parser);
        lastReceivedNanos = System.nanoTime();
        dispatch(message);
      }
      reason = new OvsdbConnectionException("ovsdb " + peer + " closed the connection");
    } catch (JacksonException e) {
      reason =
          isOpen() && !(e.getCause() instanceof IOException)
              ? new OvsdbConnectionException(
                  "ovsdb " + peer + " sent malformed JSON: " + e.getOriginalMessage(), e)
              : new OvsdbConnectionException(
                  "connection to ovsdb " + peer + " lost: " + e.getOriginalMessage(), e);
    } catch (RuntimeException e) {
      reason = new OvsdbConnectionException("connection to ovsdb " + peer + " failed: " + e, e);
    }
    close(reason);
  }

  private void dispatch(JsonNode message) {
    JsonNode id = message.path("id");
    if (message.has("method")) {
      String method = message.get("method").asString();
      JsonNode params = message.path("params");
      if (id.isMissingNode() || id.isNull()) {
        try {
          handler.onNotification(this, method, params);
        } catch (RuntimeException e) {
          LOG.log(
              System.Logger.Level.WARNING,
              "handling ovsdb " + method + " notification from " + peer + " failed",
              e);
        }
      } else {
        answer(id, method, params);
      }
      return;
    }
    if (!id.isIntegralNumber()) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "ignoring response with foreign id from {0}: {1}",
          peer,
          message);
      return;
    }
    Pending request = pending.remove(id.longValue());
    if (request == null) {
      return; // answer to a request that timed out or was cancelled
    }
    JsonNode error = message.path("error");
    if (!error.isMissingNode() && !error.isNull()) {
      String text = error.isObject() ? error.path("error").asString("") : error.asString();
      String details = error.isObject() ? error.path("details").asString("") : "";
      request
          .result()
          .completeExceptionally(new OvsdbRpcException(request.method(), text, details));
    } else {
      JsonNode result = message.path("result");
      try {
        request.inReader().accept(result);
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "handling the ovsdb " + request.method() + " reply from " + peer + " failed",
            e);
        request.result().completeExceptionally(e);
        return;
      }
      request.result().complete(result);
    }
  }

  /** The server may ask us too: answer {@code echo} (its liveness probe), refuse anything else. */
  private void answer(JsonNode id, String method, JsonNode params) {
    ObjectNode reply = JSON.objectNode();
    if (method.equals("echo")) {
      reply.set("result", params);
      reply.putNull("error");
    } else {
      reply.putNull("result");
      reply.set("error", JSON.objectNode().put("error", "unknown method").put("details", method));
    }
    reply.set("id", id);
    try {
      send(reply);
    } catch (OvsdbConnectionException e) {
      // already closed by send
    }
  }

  void close(OvsdbConnectionException reason) {
    if (!closed.complete(reason)) {
      return;
    }
    transport.close();
    for (Pending request : pending.values()) {
      request.result().completeExceptionally(reason);
    }
    pending.clear();
  }

  @Override
  public void close() {
    close(new OvsdbConnectionException("connection to ovsdb " + peer + " closed by the client"));
  }

  boolean readerAlive() {
    return reader.isAlive();
  }

  /** Waits for the reader thread to finish after {@link #close}. */
  void awaitReaderExit(long millis) throws InterruptedException {
    reader.join(millis);
  }
}
