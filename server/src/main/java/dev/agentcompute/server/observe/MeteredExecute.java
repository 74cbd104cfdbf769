package dev.agentcompute.server.observe;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps the {@code execute} tool to count executions by outcome and time them: {@code ok}, or the
 * error class of the tool's text ({@code capability failed: x} counts as {@code capability_failed},
 * never with the detail, which may echo agent input).
 */
public final class MeteredExecute {
  private final ServerMetrics metrics;
  private final AtomicInteger running = new AtomicInteger();

  public MeteredExecute(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  /** Executions in progress, each holding one CodeMode worker. */
  public int running() {
    return running.get();
  }

  public List<McpServerFeatures.SyncToolSpecification> wrap(
      List<McpServerFeatures.SyncToolSpecification> tools) {
    return tools.stream().map(t -> t.tool().name().equals("execute") ? metered(t) : t).toList();
  }

  private McpServerFeatures.SyncToolSpecification metered(
      McpServerFeatures.SyncToolSpecification tool) {
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool.tool())
        .callHandler(
            (exchange, request) -> {
              long start = System.nanoTime();
              running.incrementAndGet();
              String outcome = "internal_failure";
              try {
                McpSchema.CallToolResult result = tool.callHandler().apply(exchange, request);
                outcome = outcome(result);
                return result;
              } finally {
                running.decrementAndGet();
                metrics.execution(outcome, Duration.ofNanos(System.nanoTime() - start));
              }
            })
        .build();
  }

  static String outcome(McpSchema.CallToolResult result) {
    if (!Boolean.TRUE.equals(result.isError())) {
      return "ok";
    }
    String text =
        result.content().stream()
            .filter(c -> c instanceof McpSchema.TextContent)
            .map(c -> ((McpSchema.TextContent) c).text())
            .findFirst()
            .orElse("internal failure");
    int colon = text.indexOf(':');
    String errorClass = colon >= 0 ? text.substring(0, colon) : text;
    return errorClass.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z]+", "_");
  }
}
