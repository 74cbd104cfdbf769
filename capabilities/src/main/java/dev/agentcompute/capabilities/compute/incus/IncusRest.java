package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.channels.ClosedByInterruptException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Incus REST envelope over {@link UnixSocketHttp}: JSON bodies, sync/async/error answers, ETags,
 * waiting for background operations, and mapping failures onto {@link BackendException} kinds.
 */
final class IncusRest {
  private static final List<String> UNAVAILABLE_TEXTS = List.of("unable to connect", "connection refused",
      "connection reset", "no such host", "i/o timeout", "network is unreachable");
  private static final long WAIT_SLICE_SECONDS = 5;

  private final UnixSocketHttp http;
  private final JsonMapper json = JsonMapper.builder().build();

  IncusRest(UnixSocketHttp http) {
    this.http = http;
  }

  JsonMapper json() {
    return json;
  }

  /** A sync answer's metadata with its ETag. */
  record Tagged(JsonNode value, String etag) {}

  static String path(String project, String path) {
    if (project == null || project.isEmpty() || project.equals("default")) {
      return path;
    }
    return path + (path.indexOf('?') >= 0 ? '&' : '?') + "project=" + encode(project);
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  JsonNode get(String project, String path) {
    return getTagged(project, path).value();
  }

  Tagged getTagged(String project, String path) {
    UnixSocketHttp.Response response = send("GET", path(project, path), Map.of(), null);
    JsonNode root = envelope(response, "GET " + path);
    return new Tagged(root.path("metadata"), response.header("etag"));
  }

  /** Sends a request; an async answer is waited for (up to {@code timeout}) and its metadata returned. */
  JsonNode call(String project, String method, String path, Object body, String ifMatch, Duration timeout) {
    String request = method + " " + path(project, path);
    UnixSocketHttp.Response response = send(method, path(project, path),
        ifMatch == null ? Map.of("Content-Type", "application/json")
            : Map.of("Content-Type", "application/json", "If-Match", ifMatch),
        body == null ? null : json.writeValueAsBytes(body));
    JsonNode root = envelope(response, request);
    if ("async".equals(root.path("type").asString(""))) {
      return waitFor(project, root.path("metadata").path("id").asString(), timeout, request);
    }
    return root.path("metadata");
  }

  JsonNode call(String project, String method, String path, Object body) {
    return call(project, method, path, body, null, Duration.ofMinutes(10));
  }

  /** Starts a background operation and returns its id without waiting. */
  String start(String project, String method, String path, Object body) {
    String request = method + " " + path(project, path);
    JsonNode root = envelope(send(method, path(project, path), Map.of("Content-Type", "application/json"),
        body == null ? null : json.writeValueAsBytes(body)), request);
    if (!"async".equals(root.path("type").asString(""))) {
      throw new BackendException(Kind.FAILED, request + ": expected a background operation");
    }
    return root.path("metadata").path("id").asString();
  }

  /** Waits for an operation; returns its metadata on success, throws its failure otherwise. */
  JsonNode waitFor(String project, String id, Duration timeout, String request) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new BackendException(Kind.FAILED, request + ": operation " + id + " still running after " + timeout);
      }
      long slice = Math.max(1, Math.min(WAIT_SLICE_SECONDS, Duration.ofNanos(remaining).toSeconds()));
      JsonNode op = envelope(send("GET", path(project, "/1.0/operations/" + encode(id) + "/wait?timeout=" + slice),
          Map.of(), null), request).path("metadata");
      int code = op.path("status_code").asInt();
      if (code == 200) {
        return op;
      }
      if (code == 400 || code == 401) {
        String err = op.path("err").asString("operation failed");
        throw new BackendException(kindOf(0, err), request + ": " + err);
      }
    }
  }

  /** A raw exchange (files, image export/import); errors are mapped like JSON ones. */
  UnixSocketHttp.Response raw(String method, String target, Map<String, String> headers, byte[] body) {
    return raw(method, target, headers, body, Integer.MAX_VALUE);
  }

  /** A raw exchange that keeps at most {@code maxBody} bytes of a successful answer. */
  UnixSocketHttp.Response raw(String method, String target, Map<String, String> headers, byte[] body, int maxBody) {
    UnixSocketHttp.Response response = send(method, target, headers, body, maxBody);
    if (response.status() >= 400) {
      envelope(response, method + " " + target);
    }
    return response;
  }

  private UnixSocketHttp.Response send(String method, String target, Map<String, String> headers, byte[] body) {
    return send(method, target, headers, body, Integer.MAX_VALUE);
  }

  private UnixSocketHttp.Response send(String method, String target, Map<String, String> headers, byte[] body,
      int maxBody) {
    try {
      return http.exchange(method, target, headers, body, maxBody);
    } catch (ClosedByInterruptException e) {
      throw cancelled(e);
    } catch (IOException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw cancelled(e);
      }
      throw new BackendException(Kind.UNAVAILABLE, method + " " + target + ": backend unavailable: " + e, e);
    }
  }

  private static CancellationException cancelled(Exception cause) {
    CancellationException e = new CancellationException("context canceled");
    e.initCause(cause);
    return e;
  }

  private JsonNode envelope(UnixSocketHttp.Response response, String request) {
    JsonNode root;
    try {
      root = response.body().length == 0 ? null : json.readTree(response.body());
    } catch (RuntimeException e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      if (response.status() >= 400) {
        throw new BackendException(kindOf(response.status(), response.text()), request + ": " + response.text());
      }
      throw new BackendException(Kind.FAILED, request + ": answer is not an Incus JSON envelope");
    }
    if (response.status() >= 400 || "error".equals(root.path("type").asString(""))) {
      int code = root.path("error_code").asInt(0);
      String error = root.path("error").asString("");
      int status = code > 0 ? code : response.status();
      throw new BackendException(kindOf(status, error), request + ": " + (error.isEmpty() ? "HTTP " + status : error));
    }
    return root;
  }

  private static Kind kindOf(int status, String text) {
    if (status == 404) {
      return Kind.NOT_FOUND;
    }
    if (status == 409) {
      return Kind.CONFLICT;
    }
    if (status == 502 || status == 503 || status == 504) {
      return Kind.UNAVAILABLE;
    }
    String lower = text == null ? "" : text.toLowerCase(Locale.ROOT);
    if (UNAVAILABLE_TEXTS.stream().anyMatch(lower::contains)) {
      return Kind.UNAVAILABLE;
    }
    if (lower.contains("not found")) {
      return Kind.NOT_FOUND;
    }
    if (lower.contains("already exists")) {
      return Kind.CONFLICT;
    }
    return Kind.FAILED;
  }
}
