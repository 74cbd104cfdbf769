package dev.agentcompute.server.http;

/**
 * The caps that keep one client from holding the HTTP front door: MCP sessions in total and per
 * identity, open TCP connections, and requests being answered at once. Each refusal names its
 * configuration key and value ({@code http.*}). The header read timeout is {@link
 * StreamableHttpTransport.Settings#idleConnectionTimeout()}.
 */
public record FrontDoor(
    int maxSessions, int maxSessionsPerIdentity, int maxConnections, int maxConcurrentRequests) {
  public static final String MAX_SESSIONS = "http.max_sessions";
  public static final String MAX_SESSIONS_PER_IDENTITY = "http.max_sessions_per_identity";
  public static final String MAX_CONNECTIONS = "http.max_connections";
  public static final String MAX_CONCURRENT_REQUESTS = "http.max_concurrent_requests";
  public static final String HEADER_TIMEOUT = "http.header_timeout_seconds";

  /**
   * Sized for a small host: 64 requests of at most 4 MiB each bound request bodies to 256 MiB of
   * heap; a session costs little, but 256 of them is far beyond what a team of agents opens.
   */
  public static FrontDoor defaults() {
    return new FrontDoor(256, 32, 512, 64);
  }

  public FrontDoor {
    if (maxSessions < 1
        || maxSessionsPerIdentity < 1
        || maxConnections < 1
        || maxConcurrentRequests < 1) {
      throw new IllegalArgumentException("every front door cap must be at least 1");
    }
  }
}
