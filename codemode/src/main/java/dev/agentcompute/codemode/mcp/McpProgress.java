package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.ExecutionObserver;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.OptionalDouble;

/**
 * MCP progress notifications for an execute call that carried a progressToken: one per completed
 * native call ({@code <capability> done}, progress = calls completed so far) and one per stage a
 * capability reports ({@code <capability>: <message>}, progress between the completed count and the
 * next). Progress only increases, as MCP requires; the total is unknown.
 */
final class McpProgress implements ExecutionObserver {

  private final McpSyncServerExchange exchange;
  private final Object token;
  private double last;

  McpProgress(McpSyncServerExchange exchange, Object token) {
    this.exchange = exchange;
    this.token = token;
  }

  @Override
  public synchronized void callCompleted(String capability, long completed) {
    send(completed, capability + " done");
  }

  @Override
  public synchronized void stage(
      String capability, long completed, String message, OptionalDouble fraction) {
    double within = Math.max(0, Math.min(last - completed, 1));
    double progress =
        completed
            + (fraction.isPresent()
                ? Math.min(fraction.getAsDouble(), 0.99)
                : within + (1 - within) / 2);
    send(progress, capability + ": " + message);
  }

  private void send(double progress, String message) {
    if (progress <= last) {
      return;
    }
    last = progress;
    try {
      exchange.progressNotification(
          new McpSchema.ProgressNotification(token, progress, null, message));
    } catch (RuntimeException clientGone) {
      // progress is best effort: the call's result does not depend on it
    }
  }
}
