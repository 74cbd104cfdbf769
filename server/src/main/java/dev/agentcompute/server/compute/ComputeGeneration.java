package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CodeModeRegistration;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.codemode.Builder;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.AuditLog;
import io.modelcontextprotocol.server.McpServerFeatures;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One complete compute stack built from one configuration version: the Incus platform, the compute
 * services (with their per-sandbox gate), the reaper, and the CodeMode server whose capabilities
 * call that service. A reload that changes sandbox policy or the catalogue builds a new generation
 * and swaps it in whole; nothing inside a generation ever changes.
 */
record ComputeGeneration(
    long number,
    ServerConfig config,
    String catalogueDigest,
    ComputeRuntime runtime,
    Server codeMode,
    int capabilities,
    Map<Optional<String>, Map<String, McpServerFeatures.SyncToolSpecification>> toolsBySubject)
    implements AutoCloseable {

  /**
   * Builds (but does not start the reaper of) a generation: connects the backend, checks every
   * catalogue alias exists in Incus, builds CodeMode (including its worker probe).
   */
  static ComputeGeneration build(
      long number, ServerConfig config, String catalogueDigest, Backends backends) {
    ComputeConfig computeConfig = ComputeWiring.computeConfig(config);
    IncusPlatform incus = backends.platform(computeConfig);
    // Existing sandbox bridges follow this configuration's protected ranges from now on.
    incus.applyBridgeBaseline();
    List<Platform> platforms = new ArrayList<>(List.of(incus.platform()));
    backends
        .lume()
        .ifPresent(
            mac -> platforms.add(mac.platform(ImageCatalog.load(computeConfig.catalogFile()))));
    ComputeRuntime runtime =
        ComputeRuntime.prepare(
            computeConfig,
            platforms,
            incus.reaperLease(),
            Clock.systemUTC(),
            backends.screenshots(),
            backends.transfers());
    // The warm pool fills beside the reaper, from when this generation goes into force.
    runtime.reaper().alsoRun(incus.warmPool());
    if (backends.audit() instanceof AuditLog audit) {
      // Expiries, reaper deletions and pin changes reach the audit trail (and its counters).
      runtime.reaper().observe(audit);
      runtime.compute().sandboxes().onPinChanged(audit::pinChanged);
    }
    var definitions = runtime.capabilities();
    Builder builder =
        CodeMode.builder(
            Options.builder()
                .policy(policy(config, runtime))
                .limits(ToolWiring.limits(config))
                .tokens(backends.tokens())
                .audit(backends.audit())
                .workerIsolation(config.codemode().workerIsolation())
                .requireConfirmation(config.sandbox().confirm().toArray(String[]::new))
                .agentGuidance(config.codemode().agentGuidance())
                .build());
    CodeModeRegistration.register(builder, definitions);
    Server codeMode;
    try {
      codeMode = builder.build();
    } catch (CodeModeException e) {
      runtime.close();
      // Only sandbox.confirm names capability ids to confirm: say which key to fix.
      String where =
          e.getMessage().contains("confirmation capability id") ? "sandbox.confirm: " : "";
      throw new StartupException("cannot build the CodeMode server: " + where + e.getMessage(), e);
    }
    return new ComputeGeneration(
        number,
        config,
        catalogueDigest,
        runtime,
        codeMode,
        definitions.size(),
        new ConcurrentHashMap<>());
  }

  /**
   * The configured Rego policy, else every authenticated subject may call every capability (the
   * original's AllowAll, explicitly).
   */
  static Policy policy(ServerConfig config) {
    return config
        .authorization()
        .<Policy>map(ServerConfig.Authorization::policy)
        .orElse(Policy.allowRegistered());
  }

  /**
   * The policy in force with the facts of the sandbox a call names ({@code input.sandbox}) when a
   * Rego policy is configured; without one every call is allowed and nothing is looked up.
   */
  static Policy policy(ServerConfig config, ComputeRuntime runtime) {
    if (config.authorization().isEmpty()) {
      return policy(config);
    }
    return SandboxFacts.around(policy(config), runtime.compute().router()::find);
  }

  /** This generation's policy, as its CodeMode server asks it (resource reads ask it too). */
  Policy policy() {
    return policy(config, runtime);
  }

  /**
   * CodeMode's three tools over this generation, by name. The subject is fixed ({@code local} on
   * stdio) or read from the transport context (HTTP).
   */
  Map<String, McpServerFeatures.SyncToolSpecification> tools(Optional<String> fixedSubject) {
    return toolsBySubject.computeIfAbsent(
        fixedSubject,
        fixed -> {
          InvocationResolver resolver =
              fixed
                  .map(id -> InvocationResolver.staticSubject(new Subject(id)))
                  .orElse(InvocationResolver.contextSubject());
          Map<String, McpServerFeatures.SyncToolSpecification> byName = new LinkedHashMap<>();
          CodeModeMcp.tools(codeMode, resolver).forEach(t -> byName.put(t.tool().name(), t));
          return Map.copyOf(byName);
        });
  }

  /**
   * Whether a new configuration needs a new generation (sandbox policy, protected ranges or
   * catalogue changed).
   */
  boolean differsFrom(ServerConfig next, String nextCatalogueDigest) {
    return !config.sandbox().equals(next.sandbox())
        || !config.network().equals(next.network())
        || !config.authorization().equals(next.authorization())
        || !config.codemode().workerReuse().equals(next.codemode().workerReuse())
        || config.codemode().agentGuidance() != next.codemode().agentGuidance()
        || config.codemode().workerIsolation() != next.codemode().workerIsolation()
        || !config.imagesFile().equals(next.imagesFile())
        || !catalogueDigest.equals(nextCatalogueDigest);
  }

  @Override
  public void close() {
    runtime.close();
    codeMode.close();
  }
}
