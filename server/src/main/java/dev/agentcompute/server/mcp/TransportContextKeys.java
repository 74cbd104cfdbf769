package dev.agentcompute.server.mcp;

/**
 * Keys this server puts into every MCP transport context. Besides these, the HTTP transport stores
 * the CodeMode {@code Subject} under {@code Subject.TRANSPORT_CONTEXT_KEY}, which the CodeMode
 * adapter reads; nothing takes identity from tool arguments, source or _meta.
 */
public final class TransportContextKeys {
  /** The verified identity of the caller as a string: a token's name or {@code development}. */
  public static final String SUBJECT = "agentcompute.subject";

  /** The MCP session id. */
  public static final String SESSION_ID = "agentcompute.session";

  /** {@code http}. */
  public static final String TRANSPORT = "agentcompute.transport";

  private TransportContextKeys() {}
}
