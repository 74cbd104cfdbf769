package dev.agentcompute.server;

import dev.agentcompute.capabilities.CodeModeRegistration;
import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.compute.incus.IncusBackend;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.codemode.Builder;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import io.modelcontextprotocol.server.McpServerFeatures;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One complete compute stack built from one configuration version: the Incus backend, the
 * compute service (with its per-sandbox gate), the reaper, and the CodeMode server whose
 * capabilities call that service. A reload that changes sandbox policy or the catalogue builds a
 * new generation and swaps it in whole; nothing inside a generation ever changes.
 */
record ComputeGeneration(long number, ServerConfig config, String catalogueDigest,
    ComputeService service, Reaper reaper, Server codeMode, int capabilities,
    Map<Optional<String>, Map<String, McpServerFeatures.SyncToolSpecification>> toolsBySubject)
    implements AutoCloseable {

  /**
   * Builds (but does not start the reaper of) a generation: connects the backend, checks every
   * catalogue alias exists in Incus, builds CodeMode (including its worker probe).
   */
  static ComputeGeneration build(long number, ServerConfig config, String catalogueDigest,
      Backends backends) {
    ComputeConfig computeConfig = ComputeWiring.computeConfig(config);
    IncusBackend backend = backends.backend(computeConfig);
    ImageCatalog catalog = ImageCatalog.load(computeConfig.catalogFile());
    backend.reconcileCatalog(catalog);
    ComputeService service = new ComputeService(backend, computeConfig, catalog,
        Clock.systemUTC(), new SecureRandom());
    var definitions = ComputeCapabilities.definitions(service);
    Builder builder = CodeMode.builder(Options.builder()
        .policy(Policy.allowAll())
        .limits(ToolWiring.limits())
        .build());
    CodeModeRegistration.register(builder, definitions);
    Server codeMode;
    try {
      codeMode = builder.build();
    } catch (CodeModeException e) {
      throw new StartupException("cannot build the CodeMode server: " + e.getMessage(), e);
    }
    return new ComputeGeneration(number, config, catalogueDigest, service,
        new Reaper(service, computeConfig.reaperInterval()), codeMode, definitions.size(),
        new ConcurrentHashMap<>());
  }

  /**
   * CodeMode's three tools over this generation, by name. The subject is fixed
   * ({@code local} on stdio) or read from the transport context (HTTP).
   */
  Map<String, McpServerFeatures.SyncToolSpecification> tools(Optional<String> fixedSubject) {
    return toolsBySubject.computeIfAbsent(fixedSubject, fixed -> {
      InvocationResolver resolver = fixed
          .map(id -> InvocationResolver.staticSubject(new Subject(id)))
          .orElse(InvocationResolver.contextSubject());
      Map<String, McpServerFeatures.SyncToolSpecification> byName = new LinkedHashMap<>();
      CodeModeMcp.tools(codeMode, resolver).forEach(t -> byName.put(t.tool().name(), t));
      return Map.copyOf(byName);
    });
  }

  /** Whether a new configuration needs a new generation (sandbox policy or catalogue changed). */
  boolean differsFrom(ServerConfig next, String nextCatalogueDigest) {
    return !config.sandbox().equals(next.sandbox())
        || !config.imagesFile().equals(next.imagesFile())
        || !catalogueDigest.equals(nextCatalogueDigest);
  }

  @Override
  public void close() {
    reaper.close();
    codeMode.close();
  }
}
