package dev.agentcompute.server.compute;

import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import dev.agentcompute.codemode.mcp.ResourceRequests;
import dev.agentcompute.server.admin.RunningExecutes;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.mcp.McpServerAssembly;
import dev.agentcompute.server.observe.AuditLog;
import dev.agentcompute.server.observe.MeteredExecute;
import dev.agentcompute.server.observe.RunningTotal;
import dev.agentcompute.server.observe.ServerMetrics;
import dev.agentcompute.server.observe.Version;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Optional;

/**
 * The MCP server: exactly CodeMode's three tools, over the compute generation in force. Limits are
 * the product's (docs/reference/codemode.md#limits): 15-minute executions, 1,000 native calls, the
 * rest CodeMode's defaults; every authenticated subject may call every registered capability unless
 * a Rego policy is configured ({@link ComputeGeneration}). Resources are answered per caller
 * ({@link AgentResources}), outside the SDK.
 */
public final class ToolWiring {
  static final Duration MAX_EXECUTION_TIME = Duration.ofMinutes(15);
  static final long MAX_NATIVE_CALLS = 1_000;

  private ToolWiring() {}

  /**
   * The product's limits (one identity's share of the execution slots from {@code
   * codemode.max_slots_per_identity}), plus worker reuse when {@code codemode.worker_reuse} is
   * configured (one worker JVM then serves several executions of the same subject; see
   * docs/security.md).
   */
  static Limits limits(ServerConfig config) {
    Limits limits =
        Limits.unset()
            .withMaxExecutionTime(MAX_EXECUTION_TIME)
            .withMaxNativeCalls(MAX_NATIVE_CALLS)
            .withMaxConcurrentExecutionsPerSubject(config.codemode().maxSlotsPerIdentity());
    return config
        .codemode()
        .workerReuse()
        .map(r -> limits.withWorkerReuse(r.maxExecutions(), r.maxIdle()))
        .orElse(limits);
  }

  /**
   * The subject comes from the transport context (HTTP: the verified identity) or is fixed ({@code
   * local} on stdio).
   */
  public static McpServerAssembly assembly(
      ComputeGenerations compute, ServerMetrics metrics, AuditLog audit, RunningExecutes running) {
    MeteredExecute metered = new MeteredExecute(metrics, audit);
    metrics.workerPool(
        metered::running, () -> compute.current().codeMode().limits().maxConcurrentExecutions());
    metrics.workerStarts(
        new RunningTotal(() -> compute.current().codeMode().workersStarted()),
        () -> compute.current().codeMode().queuedExecutions());
    Version version = Version.current();
    Resources resources = AgentResources.build(compute, compute.tokens());
    ResourceRequests forContextSubject =
        CodeModeMcp.resources(resources, InvocationResolver.contextSubject());
    return new McpServerAssembly() {
      @Override
      public McpSyncServer build(
          McpServer.SyncSpecification<?> spec, Optional<String> fixedSubject) {
        return spec.serverInfo("agentcompute", version.version())
            .capabilities(
                McpSchema.ServerCapabilities.builder()
                    .tools(false)
                    .logging()
                    .resources(false, false)
                    .build())
            // An elicitation/create may wait as long as MaxConfirmationWait (the SDK's default
            // request timeout would end it after 10 s).
            .requestTimeout(CodeModeMcp.requestTimeout(compute.current().codeMode().limits()))
            .tools(running.wrap(metered.wrap(compute.tools(fixedSubject), fixedSubject)))
            .build();
      }

      @Override
      public Optional<ResourceRequests> resources(Optional<String> fixedSubject) {
        return Optional.of(
            fixedSubject
                .map(
                    id ->
                        CodeModeMcp.resources(
                            resources, InvocationResolver.staticSubject(new Subject(id))))
                .orElse(forContextSubject));
      }
    };
  }
}
