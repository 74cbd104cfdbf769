package dev.agentcompute.server;

import dev.agentcompute.codemode.Limits;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;

/**
 * The MCP server: exactly CodeMode's three tools, over the compute generation in force. Limits
 * are the product's (spec §1.2): 15-minute executions, 1,000 native calls, the rest CodeMode's
 * defaults; every authenticated subject may call every capability (AllowAll, explicitly, in
 * {@link ComputeGeneration}).
 */
final class ToolWiring {
  static final Duration MAX_EXECUTION_TIME = Duration.ofMinutes(15);
  static final long MAX_NATIVE_CALLS = 1_000;

  private ToolWiring() {}

  static Limits limits() {
    Limits unset = Limits.unset();
    return new Limits(unset.maxSourceBytes(), unset.maxExecutionSteps(), MAX_EXECUTION_TIME,
        MAX_NATIVE_CALLS, unset.maxValueDepth(), unset.maxValueBytes(),
        unset.maxIntermediateValueBytes(), unset.maxSearchQueryBytes(),
        unset.maxSearchResults(), unset.maxConcurrentExecutions(),
        unset.maxWorkerMemoryBytes(), unset.maxExecutionsPerWorker());
  }

  /**
   * The subject comes from the transport context (HTTP: the verified identity) or is fixed
   * ({@code local} on stdio).
   */
  static McpServerAssembly assembly(ComputeGenerations compute, ServerMetrics metrics) {
    MeteredExecute metered = new MeteredExecute(metrics);
    metrics.workerPool(metered::running,
        () -> compute.current().codeMode().limits().maxConcurrentExecutions());
    Version version = Version.current();
    return (spec, fixedSubject) -> spec
        .serverInfo("agentcompute", version.version())
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
        .tools(metered.wrap(compute.tools(fixedSubject)))
        .build();
  }
}
