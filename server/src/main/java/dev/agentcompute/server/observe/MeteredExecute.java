package dev.agentcompute.server.observe;

import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps the {@code execute} tool to count executions by outcome ({@link Outcomes}), time them and
 * write each one's audit record: its id (from the result's {@code _meta}, which CodeMode sets on
 * every answer), subject, session, the program's SHA-256 and size, outcome, duration and the number
 * of native calls it made.
 */
public final class MeteredExecute {
  private final ServerMetrics metrics;
  private final AuditLog audit;
  private final AtomicInteger running = new AtomicInteger();

  public MeteredExecute(ServerMetrics metrics, AuditLog audit) {
    this.metrics = metrics;
    this.audit = audit;
  }

  /** Executions in progress, each holding one CodeMode worker. */
  public int running() {
    return running.get();
  }

  public List<McpServerFeatures.SyncToolSpecification> wrap(
      List<McpServerFeatures.SyncToolSpecification> tools, Optional<String> fixedSubject) {
    return tools.stream()
        .map(t -> t.tool().name().equals("execute") ? metered(t, fixedSubject) : t)
        .toList();
  }

  private McpServerFeatures.SyncToolSpecification metered(
      McpServerFeatures.SyncToolSpecification tool, Optional<String> fixedSubject) {
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool.tool())
        .callHandler(
            (exchange, request) -> {
              long start = System.nanoTime();
              running.incrementAndGet();
              McpSchema.CallToolResult result = null;
              try {
                result = tool.callHandler().apply(exchange, request);
                return result;
              } finally {
                running.decrementAndGet();
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                String outcome =
                    result == null
                        ? Outcomes.of(dev.agentcompute.codemode.Failure.INTERNAL)
                        : Outcomes.of(result);
                metrics.execution(outcome, took);
                String source =
                    request.arguments() != null
                            && request.arguments().get("source") instanceof String s
                        ? s
                        : "";
                byte[] bytes = source.getBytes(StandardCharsets.UTF_8);
                audit.execute(
                    executeId(result),
                    subject(exchange).or(() -> fixedSubject).orElse(null),
                    exchange == null ? null : exchange.sessionId(),
                    sha256(bytes),
                    bytes.length,
                    outcome,
                    took);
              }
            })
        .build();
  }

  private static String executeId(McpSchema.CallToolResult result) {
    if (result != null
        && result.meta() != null
        && result.meta().get(ExecuteIds.META_KEY) instanceof String id) {
      return id;
    }
    return "";
  }

  private static Optional<String> subject(McpSyncServerExchange exchange) {
    if (exchange != null
        && exchange.transportContext() != null
        && exchange.transportContext().get(Subject.TRANSPORT_CONTEXT_KEY) instanceof Subject s) {
      return Optional.of(s.id());
    }
    return Optional.empty();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
