package dev.agentcompute.server.mcp;

import dev.agentcompute.codemode.mcp.ResourceRequests;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.util.Optional;

/**
 * Completes an MCP server specification (server info, capabilities, tools) for either transport.
 * Main supplies the CodeMode adapter; tests supply small tools of their own.
 */
@FunctionalInterface
public interface McpServerAssembly {
  /**
   * @param fixedSubject the subject of every call ({@code local} on stdio), or empty when each
   *     call's subject is the verified identity in the transport context ({@link
   *     TransportContextKeys#SUBJECT})
   */
  McpSyncServer build(McpServer.SyncSpecification<?> specification, Optional<String> fixedSubject);

  /**
   * Who answers resources/list, resources/templates/list and resources/read, per caller, instead of
   * the SDK (which lists resources globally, without cursors or a per-caller filter); empty when
   * the server offers no resources.
   */
  default Optional<ResourceRequests> resources(Optional<String> fixedSubject) {
    return Optional.empty();
  }
}
