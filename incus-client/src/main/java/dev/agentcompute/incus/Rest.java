package dev.agentcompute.incus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Incus REST envelope on top of {@link Transport}: JSON bodies, the sync/async/error response
 * types, ETags, operation waiting, and error mapping. Shared by every facade of one client.
 */
final class Rest implements AutoCloseable {

  /** Longest single {@code /wait} request; longer waits loop so cancellation stays prompt. */
  private static final long WAIT_SLICE_SECONDS = 10;

  /**
   * What incusd answers (as an error, code 500) when {@code /wait?timeout=N} ends before the
   * operation does: not a failure of the operation, just the end of one slice.
   */
  private static final String WAIT_SLICE_EXPIRED = "context deadline exceeded";

  private final Transport transport;
  private final JsonMapper json = Json.mapper();
  private final Duration requestTimeout;
  private final Duration operationTimeout;

  Rest(Transport transport, Duration requestTimeout, Duration operationTimeout) {
    this.transport = transport;
    this.requestTimeout = requestTimeout;
    this.operationTimeout = operationTimeout;
  }

  Transport transport() {
    return transport;
  }

  JsonMapper json() {
    return json;
  }

  Duration operationTimeout() {
    return operationTimeout;
  }

  /** A parsed sync answer: its metadata and ETag. */
  record Answer(String type, JsonNode metadata, String etag, Transport.Response response) {}

  <T> T get(Scope scope, String path, Class<T> type) {
    return convert(send(scope, "GET", path, null, null).metadata(), type, path);
  }

  <T> T get(Scope scope, String path, TypeReference<T> type) {
    return convert(send(scope, "GET", path, null, null).metadata(), type, path);
  }

  <T> Tagged<T> getTagged(Scope scope, String path, Class<T> type) {
    Answer answer = send(scope, "GET", path, null, null);
    return new Tagged<>(convert(answer.metadata(), type, path), answer.etag());
  }

  /**
   * Sends a request whose answer may be sync or async; an async answer is waited for with the
   * default operation timeout. Returns the sync metadata, or the finished operation's metadata.
   */
  JsonNode call(Scope scope, String method, String path, Object body, String ifMatch) {
    Answer answer = send(scope, method, path, body, ifMatch);
    if ("async".equals(answer.type())) {
      Operation started = operationOf(answer, method + " " + path);
      Operation done = new PendingOperation(this, scope, started, method + " " + path).await();
      return json.valueToTree(done.metadata());
    }
    return answer.metadata();
  }

  /** Sends a request that must start a background operation. */
  PendingOperation async(Scope scope, String method, String path, Object body, String ifMatch) {
    String request = method + " " + scope.apply(path);
    Answer answer = send(scope, method, path, body, ifMatch);
    if (!"async".equals(answer.type())) {
      throw new IncusException.Failed(
          answer.response().status(),
          request + ": expected a background operation, got a " + answer.type() + " answer",
          null);
    }
    return new PendingOperation(this, scope, operationOf(answer, request), request);
  }

  PendingOperation async(Scope scope, Transport.Response response, String request) {
    Answer answer = parse(response, request);
    if (!"async".equals(answer.type())) {
      throw new IncusException.Failed(
          response.status(),
          request + ": expected a background operation, got a " + answer.type() + " answer",
          null);
    }
    return new PendingOperation(this, scope, operationOf(answer, request), request);
  }

  Answer send(Scope scope, String method, String path, Object body, String ifMatch) {
    Map<String, String> headers = new HashMap<>();
    HttpEntity entity = null;
    if (body != null) {
      entity = new ByteArrayEntity(json.writeValueAsBytes(body), ContentType.APPLICATION_JSON);
    }
    if (ifMatch != null && !ifMatch.isEmpty()) {
      headers.put("If-Match", ifMatch);
    }
    String target = scope.apply(path);
    Transport.Response response =
        transport.exchange(method, target, headers, entity, requestTimeout);
    return parse(response, method + " " + target);
  }

  /** Raw exchange for non-JSON bodies (files, image upload); errors are still mapped. */
  Transport.Response raw(
      Scope scope,
      String method,
      String path,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout) {
    String target = scope.apply(path);
    Transport.Response response = transport.exchange(method, target, headers, body, timeout);
    if (response.status() >= 400) {
      parse(response, method + " " + target);
    }
    return response;
  }

  /**
   * A raw GET that keeps at most {@code maxBody} bytes of a successful answer (see {@link
   * Transport}).
   */
  Transport.Response rawBounded(Scope scope, String path, Duration timeout, long maxBody) {
    String target = scope.apply(path);
    Transport.Response response =
        transport.exchange("GET", target, Map.of(), null, timeout, maxBody);
    if (response.status() >= 400) {
      parse(response, "GET " + target);
    }
    return response;
  }

  /** A streamed raw exchange ({@link Transport#stream}); error answers are mapped. */
  <T> T rawStream(
      Scope scope,
      String method,
      String path,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout,
      Transport.BodyReader<T> reader) {
    String target = scope.apply(path);
    try {
      return transport.stream(method, target, headers, body, timeout, reader);
    } catch (Transport.ErrorAnswer e) {
      parse(e.response(), method + " " + target);
      throw new IncusException.Failed(
          e.response().status(), method + " " + target + ": HTTP " + e.response().status(), null);
    }
  }

  Answer parse(Transport.Response response, String request) {
    JsonNode root;
    try {
      root = response.body().length == 0 ? null : json.readTree(response.body());
    } catch (JacksonException e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      if (response.status() >= 400) {
        String text = new String(response.body(), StandardCharsets.UTF_8).strip();
        throw Errors.fromStatus(response.status(), text, request);
      }
      throw new IncusException.Failed(
          response.status(), request + ": answer is not an Incus JSON envelope", null);
    }
    String type = root.path("type").asString("");
    if (response.status() >= 400 || "error".equals(type)) {
      int code = root.path("error_code").asInt(0);
      throw Errors.fromStatus(
          code > 0 ? code : response.status(), root.path("error").asString(""), request);
    }
    return new Answer(type, root.path("metadata"), response.header("etag"), response);
  }

  private Operation operationOf(Answer answer, String request) {
    return convert(answer.metadata(), Operation.class, request);
  }

  Operation waitOperation(Scope scope, String id, Duration timeout, String request) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new IncusException.TimedOut(
            request + ": operation " + id + " still running after " + timeout);
      }
      long slice =
          Math.max(1, Math.min(WAIT_SLICE_SECONDS, Duration.ofNanos(remaining).toSeconds()));
      String path = scope.apply("/1.0/operations/" + Scope.segment(id) + "/wait?timeout=" + slice);
      Transport.Response response =
          transport.exchange(
              "GET", path, Map.of(), null, Duration.ofSeconds(slice).plus(requestTimeout));
      Answer answer;
      try {
        answer = parse(response, request + " (waiting on operation " + id + ")");
      } catch (IncusException.Failed e) {
        if (e.getMessage().endsWith(WAIT_SLICE_EXPIRED)) {
          continue; // the slice ended with the operation still running
        }
        throw e;
      }
      Operation operation = convert(answer.metadata(), Operation.class, request);
      if (operation.done()) {
        return operation;
      }
    }
  }

  void cancelOperation(Scope scope, String id) {
    send(scope, "DELETE", "/1.0/operations/" + Scope.segment(id), null, null);
  }

  <T> T convert(JsonNode node, Class<T> type, String what) {
    try {
      return node == null || node.isNull() || node.isMissingNode()
          ? null
          : json.treeToValue(node, type);
    } catch (JacksonException e) {
      throw new IncusException.Failed(
          0,
          what
              + ": cannot read the server's answer as "
              + type.getSimpleName()
              + ": "
              + e.getOriginalMessage(),
          e);
    }
  }

  <T> T convert(JsonNode node, TypeReference<T> type, String what) {
    try {
      return node == null || node.isNull() || node.isMissingNode()
          ? null
          : json.readerFor(type).readValue(node);
    } catch (JacksonException e) {
      throw new IncusException.Failed(
          0, what + ": cannot read the server's answer: " + e.getOriginalMessage(), e);
    }
  }

  @Override
  public void close() {
    transport.close();
  }
}
