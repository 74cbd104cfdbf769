package dev.agentcompute.server.http;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.publisher.Mono;

/**
 * One Server-Sent Events stream written by hand on a response's output stream (Helidon 4.2's
 * SseSink closes the socket and cannot send comments). Each frame is flushed as one chunk. A thread
 * parks in {@link #awaitClose} and sends keep-alive comments until the SDK or the client ends the
 * stream (a listening GET stream's handler thread; a POST response's own keep-alive thread); a
 * failed write means the client is gone and completes {@code clientGone}.
 */
final class SseStream implements McpStreamableServerTransport {
  private final McpJsonMapper json;
  private final OutputStream out;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final CompletableFuture<Void> clientGone;

  SseStream(McpJsonMapper json, OutputStream out) {
    this(json, out, new CompletableFuture<>());
  }

  /**
   * @param clientGone completed when a write fails: the client is gone
   */
  SseStream(McpJsonMapper json, OutputStream out, CompletableFuture<Void> clientGone) {
    this.json = json;
    this.out = out;
    this.clientGone = clientGone;
  }

  /**
   * Sends the JSON-RPC error answer of request {@code id} (a failure after the stream started); a
   * client that is gone already is ignored.
   */
  void sendError(Object id, int code, String message) {
    try {
      sendMessage(
              new McpSchema.JSONRPCResponse(
                  McpSchema.JSONRPC_VERSION,
                  id,
                  null,
                  new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null)))
          .block();
    } catch (RuntimeException gone) {
      // Nobody is listening any more.
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return sendMessage(message, null);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
    return Mono.fromRunnable(
        () -> {
          String data;
          try {
            data = json.writeValueAsString(message);
          } catch (IOException e) {
            throw new IllegalStateException("cannot serialise an MCP message", e);
          }
          StringBuilder frame = new StringBuilder();
          if (messageId != null) {
            frame.append("id: ").append(messageId).append('\n');
          }
          frame.append("event: message\n");
          data.lines().forEach(line -> frame.append("data: ").append(line).append('\n'));
          frame.append('\n');
          if (!write(frame.toString())) {
            throw new IllegalStateException("the SSE client went away");
          }
        });
  }

  /** Writes and flushes one frame; false (and the stream closes) if the client is gone. */
  boolean write(String frame) {
    writeLock.lock();
    try {
      if (closed.isDone()) {
        return false;
      }
      out.write(frame.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return true;
    } catch (IOException | RuntimeException e) {
      closed.complete(null);
      clientGone.complete(null);
      return false;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Blocks the calling (virtual) thread until the stream is closed, writing a comment every {@code
   * keepAlive}; a failed write means the client disconnected.
   */
  void awaitClose(Duration keepAlive) {
    while (!closed.isDone()) {
      try {
        closed.get(keepAlive.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        write(": keepalive\n\n");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        closed.complete(null);
      } catch (ExecutionException e) {
        return;
      }
    }
  }

  boolean isClosed() {
    return closed.isDone();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return json.convertValue(data, type);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  @Override
  public void close() {
    closed.complete(null);
  }
}
