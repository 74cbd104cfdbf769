package dev.agentcompute.server;

import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An MCP session over HTTP and the identity that created it. Only that identity may use or
 * delete it; the last use drives idle expiry.
 */
final class HttpSession {
  final McpStreamableServerSession mcp;
  final String owner;
  private final AtomicLong lastUsedNanos;
  private final Set<SseStream> openStreams = ConcurrentHashMap.newKeySet();

  HttpSession(McpStreamableServerSession mcp, String owner, long nowNanos) {
    this.mcp = mcp;
    this.owner = owner;
    this.lastUsedNanos = new AtomicLong(nowNanos);
  }

  void touch(long nowNanos) {
    lastUsedNanos.set(nowNanos);
  }

  /** Idle means no request arrived and no stream is open for longer than the timeout. */
  boolean idleSince(long cutoffNanos) {
    openStreams.removeIf(SseStream::isClosed);
    return openStreams.isEmpty() && lastUsedNanos.get() - cutoffNanos < 0;
  }

  void opened(SseStream stream) {
    openStreams.add(stream);
  }

  void finished(SseStream stream) {
    openStreams.remove(stream);
  }

  /** Ends every stream of this session (DELETE, expiry, shutdown). */
  void closeStreams() {
    openStreams.forEach(SseStream::close);
    openStreams.clear();
  }
}
