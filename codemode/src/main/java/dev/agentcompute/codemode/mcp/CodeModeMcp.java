package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Server;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Exposes a CodeMode {@link Server} as exactly three MCP tools (search_api, describe_api, execute)
 * on the MCP Java SDK, and a {@link Resources} registry as the MCP resources methods. The host owns
 * transport, authentication and lifecycle.
 */
public final class CodeModeMcp {

  /**
   * Key under which a transport may put a {@link CompletionStage} in the {@link
   * McpTransportContext} of a tool call that completes when the caller is gone (an HTTP client that
   * disconnected): the call's {@link Context} is then cancelled, as Go cancels a request's context,
   * so an execution ends with {@code context canceled} and its worker is killed instead of running
   * on for nobody.
   */
  public static final String CANCELLATION_CONTEXT_KEY = "dev.agentcompute.codemode.cancellation";

  /**
   * Key under which a transport may put an {@link dev.agentcompute.codemode.ExecutionObserver} in
   * the {@link McpTransportContext} of a tool call: an execute tells it of every native call,
   * beside the progress notifications (a host's list of running executes shows the call in
   * progress).
   */
  public static final String OBSERVER_CONTEXT_KEY = "dev.agentcompute.codemode.observer";

  /** How much longer than the confirmation wait a server-to-client request may take. */
  static final Duration REQUEST_TIMEOUT_MARGIN = Duration.ofSeconds(30);

  private CodeModeMcp() {}

  /**
   * The three tool specifications, for any SDK transport. execute asks the person through MCP
   * elicitation when the client declared form elicitation; build the SDK server with {@link
   * #requestTimeout(Limits)} so that request may wait as long as MaxConfirmationWait.
   */
  public static List<McpServerFeatures.SyncToolSpecification> tools(
      Server service, InvocationResolver resolver) {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(resolver, "resolver");
    return Tools.of(service, resolver);
  }

  /**
   * The handler of the resources methods for a transport to route {@link ResourceRequests#METHODS}
   * to, per caller.
   */
  public static ResourceRequests resources(Resources resources, InvocationResolver resolver) {
    return new ResourceRequests(resources, resolver);
  }

  /**
   * The server capabilities to declare: tools (listChanged) and logging, and resources ({@code
   * subscribe: false, listChanged: false}) when the host serves resources.
   */
  public static McpSchema.ServerCapabilities capabilities(boolean withResources) {
    McpSchema.ServerCapabilities.Builder b =
        McpSchema.ServerCapabilities.builder().tools(true).logging();
    if (withResources) {
      b.resources(false, false);
    }
    return b.build();
  }

  /**
   * The JSON {@code describe_api} returns for {@code description}, for hosts that serve the same
   * document elsewhere (an MCP resource per capability).
   */
  public static java.util.Map<String, Object> describeJson(
      dev.agentcompute.codemode.Description description) {
    return McpJson.describe(description);
  }

  /**
   * The SDK request timeout (server-to-client requests such as {@code elicitation/create}) that
   * lets a confirmation wait MaxConfirmationWait; the SDK's sync default of 10 s would end it
   * early.
   */
  public static Duration requestTimeout(Limits limits) {
    return limits.maxConfirmationWait().plus(REQUEST_TIMEOUT_MARGIN);
  }

  /**
   * Serves {@code service} over this process's stdin/stdout until stdin closes; logs go to stderr.
   */
  public static McpSyncServer serveStdio(Server service, InvocationResolver resolver) {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    return serve(new StdioServerTransportProvider(json), service, resolver, false);
  }

  /**
   * Serves {@code service} and {@code resources} over this process's stdin/stdout; the resources
   * methods are answered per caller ({@link RoutingStdioTransportProvider}).
   */
  public static McpSyncServer serveStdio(
      Server service, Resources resources, InvocationResolver resolver) {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    return serve(
        new RoutingStdioTransportProvider(
            json, System.in, System.out, resources(resources, resolver)),
        service,
        resolver,
        true);
  }

  /**
   * Serves {@code service} over this process's stdin/stdout and blocks until stdin closes (the
   * client went away); then closes the MCP server and {@code service}, stopping its workers, and
   * returns. From the start, {@code System.out} goes to stderr: stdout belongs to the protocol, and
   * a handler that prints would otherwise corrupt it.
   *
   * @param resources the resources to serve per caller, or null for none
   * @param info the name and version reported to clients ({@link ServerInfo#DEFAULT} when null)
   */
  public static void runStdio(
      Server service, Resources resources, InvocationResolver resolver, ServerInfo info)
      throws InterruptedException {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(resolver, "resolver");
    StdioHost.run(service, resources, resolver, info == null ? ServerInfo.DEFAULT : info);
  }

  /** {@link #runStdio(Server, Resources, InvocationResolver, ServerInfo)} with no resources. */
  public static void runStdio(Server service, InvocationResolver resolver, ServerInfo info)
      throws InterruptedException {
    runStdio(service, null, resolver, info);
  }

  static McpSyncServer serve(
      McpServerTransportProvider transport,
      Server service,
      InvocationResolver resolver,
      boolean withResources) {
    return serve(transport, service, resolver, withResources, ServerInfo.DEFAULT);
  }

  static McpSyncServer serve(
      McpServerTransportProvider transport,
      Server service,
      InvocationResolver resolver,
      boolean withResources,
      ServerInfo info) {
    return McpServer.sync(transport)
        .serverInfo(info.name(), info.version())
        .capabilities(capabilities(withResources))
        .requestTimeout(requestTimeout(service.limits()))
        .tools(tools(service, resolver))
        .build();
  }
}
