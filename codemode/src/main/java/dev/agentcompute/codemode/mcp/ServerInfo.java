package dev.agentcompute.codemode.mcp;

/**
 * The name and version the MCP server reports in its {@code initialize} answer ({@code
 * serverInfo}). Clients show them to the person; {@link #DEFAULT} is {@code codemode}/{@code 2}.
 */
public record ServerInfo(String name, String version) {

  /** What a server built without a ServerInfo of its own reports. */
  public static final ServerInfo DEFAULT = new ServerInfo("codemode", "2");

  public ServerInfo {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("ServerInfo name must not be blank");
    }
    if (version == null || version.isBlank()) {
      throw new IllegalArgumentException("ServerInfo version must not be blank");
    }
  }
}
