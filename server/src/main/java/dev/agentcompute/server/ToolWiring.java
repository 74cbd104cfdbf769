package dev.agentcompute.server;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.codemode.Builder;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;

/**
 * Builds the CodeMode server from the capability catalogue and exposes it over MCP. Limits are
 * the product's (spec §1.2): 15-minute executions, 1,000 native calls, the rest CodeMode's
 * defaults; every authenticated subject may call every capability (AllowAll, explicitly).
 */
final class ToolWiring {
  private static final Log LOG = Log.of(ToolWiring.class);
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

  static Server codeModeServer(ComputeRuntime compute) {
    Builder builder = CodeMode.builder(Options.builder()
        .policy(Policy.allowAll())
        .limits(limits())
        .build());
    int registered = CapabilityCatalogue.register(builder, compute);
    try {
      Server server = builder.build();
      LOG.info("codemode ready", "capabilities", registered);
      return server;
    } catch (CodeModeException e) {
      throw new StartupException("cannot build the CodeMode server: " + e.getMessage(), e);
    }
  }

  /**
   * The MCP server: exactly CodeMode's three tools. The subject comes from the transport
   * context (HTTP: the verified identity) or is fixed ({@code local} on stdio).
   */
  static McpServerAssembly assembly(ComputeRuntime compute, ServerMetrics metrics) {
    Server codeMode = codeModeServer(compute);
    MeteredExecute metered = new MeteredExecute(metrics);
    metrics.workerPool(metered::running, () -> codeMode.limits().maxConcurrentExecutions());
    Version version = Version.current();
    return (spec, fixedSubject) -> {
      InvocationResolver resolver = fixedSubject
          .map(id -> InvocationResolver.staticSubject(new Subject(id)))
          .orElse(InvocationResolver.contextSubject());
      return spec
          .serverInfo("agentcompute", version.version())
          .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
          .tools(metered.wrap(CodeModeMcp.tools(codeMode, resolver)))
          .build();
    };
  }
}
