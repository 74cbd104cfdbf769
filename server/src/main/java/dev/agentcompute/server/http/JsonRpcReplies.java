package dev.agentcompute.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON-RPC error answers written as the HTTP response. Every one is written only while the response
 * has not started: once a stream has begun, errors go on the stream ({@link SseStream}), never as
 * headers.
 */
final class JsonRpcReplies {
  private final McpJsonMapper json;

  JsonRpcReplies(McpJsonMapper json) {
    this.json = json;
  }

  /** An error without an id (the answer is not a response to any request). */
  void error(ServerResponse res, Status status, int code, String message) {
    error(res, status, code, message, null, false);
  }

  /** An error answering request {@code id}. */
  void errorFor(ServerResponse res, Status status, int code, String message, Object id) {
    error(res, status, code, message, id, true);
  }

  private void error(
      ServerResponse res, Status status, int code, String message, Object id, boolean withId) {
    if (res.isSent()) {
      return;
    }
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("jsonrpc", "2.0");
    body.put("id", withId ? id : null);
    body.put("error", error);
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(body);
    } catch (IOException e) {
      bytes = new byte[0];
    }
    res.status(status).header(HeaderNames.CONTENT_TYPE, "application/json").send(bytes);
  }
}
