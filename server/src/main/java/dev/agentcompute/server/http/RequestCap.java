package dev.agentcompute.server.http;

import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.Semaphore;

/**
 * At most {@code max} requests answered at once; the next gets 503 naming the limit. A session's
 * listening stream ({@code GET /mcp}) is not counted: it holds no body and is bounded by the
 * session caps. Each counted request may hold a body of up to the request size limit, so the cap
 * bounds request memory.
 */
final class RequestCap {
  private final Semaphore permits;
  private final int max;
  private final JsonRpcReplies replies = new JsonRpcReplies(McpJsonDefaults.getMapper());

  RequestCap(int max) {
    this.max = max;
    this.permits = new Semaphore(max);
  }

  void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    if (req.prologue().method().equals(Method.GET)
        && req.path().path().startsWith(HttpFrontEnd.MCP_PATH)) {
      chain.proceed();
      return;
    }
    if (!permits.tryAcquire()) {
      replies.error(
          res,
          Status.SERVICE_UNAVAILABLE_503,
          McpSchema.ErrorCodes.INTERNAL_ERROR,
          "the server is already answering "
              + max
              + " requests (limit "
              + FrontDoor.MAX_CONCURRENT_REQUESTS
              + " = "
              + max
              + "); retry shortly");
      return;
    }
    try {
      chain.proceed();
    } finally {
      permits.release();
    }
  }
}
