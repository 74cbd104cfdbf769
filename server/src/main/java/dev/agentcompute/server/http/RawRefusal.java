package dev.agentcompute.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import java.nio.charset.StandardCharsets;

/**
 * A refusal written straight to a connection, before or outside routing (connection cap, header
 * deadline): an HTTP/1.1 response with a JSON-RPC error body, after which the connection closes.
 */
final class RawRefusal {
  private RawRefusal() {}

  static void send(ConnectionContext ctx, int status, String reason, String message) {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\""
            + message.replace("\\", "\\\\").replace("\"", "\\\"")
            + "\"}}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + bytes.length
            + "\r\nConnection: close\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[headBytes.length + bytes.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(bytes, 0, all, headBytes.length, bytes.length);
    ctx.dataWriter().writeNow(BufferData.create(all));
  }
}
