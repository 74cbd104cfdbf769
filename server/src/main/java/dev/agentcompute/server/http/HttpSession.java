package dev.agentcompute.server.http;

import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An MCP session over HTTP and the identity that created it. Only that identity may use or delete
 * it; the last use drives idle expiry.
 */
final class HttpSession {
  final McpStreamableServerSession mcp;
  final String owner;
  private final AtomicLong lastUsedNanos;
  private final Set<SseStream> openStreams = ConcurrentHashMap.newKeySet();
  private final Set<SseStream> listeningStreams = ConcurrentHashMap.newKeySet();

  HttpSession(McpStreamableServerSession mcp, String owner, long nowNanos) {
    this.mcp = mcp;
    this.owner = owner;
    this.lastUsedNanos = new AtomicLong(nowNanos);
  }

  void touch(long nowNanos) {
    lastUsedNanos.set(nowNanos);
  }

  /** When a request last arrived (the least recently used session is evicted first). */
  long lastUsed() {
    return lastUsedNanos.get();
  }

  /** Whether a request or stream of this session is open now (such a session is never evicted). */
  boolean inUse() {
    openStreams.removeIf(SseStream::isClosed);
    return !openStreams.isEmpty();
  }

  /** Idle means no request arrived and no stream is open for longer than the timeout. */
  boolean idleSince(long cutoffNanos) {
    openStreams.removeIf(SseStream::isClosed);
    return openStreams.isEmpty() && lastUsedNanos.get() - cutoffNanos < 0;
  }

  /** A response stream of one POST, or (listening) the GET stream for server messages. */
  void opened(SseStream stream, boolean listening) {
    openStreams.add(stream);
    if (listening) {
      listeningStreams.add(stream);
    }
  }

  void finished(SseStream stream) {
    openStreams.remove(stream);
    listeningStreams.remove(stream);
  }

  /** Ends the GET streams only; answers in flight may finish (shutdown drain). */
  void closeListeningStreams() {
    listeningStreams.forEach(SseStream::close);
  }

  /** Ends every stream of this session (DELETE, expiry, shutdown). */
  void closeStreams() {
    openStreams.forEach(SseStream::close);
    openStreams.clear();
    listeningStreams.clear();
  }
}
