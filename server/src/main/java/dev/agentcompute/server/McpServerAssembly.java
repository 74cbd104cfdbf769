package dev.agentcompute.server;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.util.Optional;

/**
 * Completes an MCP server specification (server info, capabilities, tools) for either
 * transport. Main supplies the CodeMode adapter; tests supply small tools of their own.
 */
@FunctionalInterface
public interface McpServerAssembly {
  /**
   * @param fixedSubject the subject of every call ({@code local} on stdio), or empty when each
   *     call's subject is the verified identity in the transport context
   *     ({@link TransportContextKeys#SUBJECT})
   */
  McpSyncServer build(McpServer.SyncSpecification<?> specification,
      Optional<String> fixedSubject);
}
